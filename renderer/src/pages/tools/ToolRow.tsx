import type { ApprovalMode, ToolView } from '../../../../common/contract';
import { formatDateTime } from '../../lib/format';
import { badgesOf } from './tools-model';

const BADGE_TEXT = {
  'read-only': 'Read-only',
  destructive: 'Destructive',
  changes: 'Makes changes',
  customized: 'Changed by you',
} as const;

interface Props {
  tool: ToolView;
  busy: boolean;
  onEnabled: (enabled: boolean) => void;
  onApproval: (mode: ApprovalMode) => void;
}

/**
 * Reasons the user cannot change from this row: the tool is not in Airlock's hands (its server is
 * down or needs a sign-in, or Airlock cannot relay it), so switching it would change nothing.
 */
const FIXED = new Set(['unsupported', 'server-down', 'sign-in']);

/** One tool: name, what it does, its badges, enabled, and runs freely / asks first. */
export function ToolRow({ tool, busy, onEnabled, onApproval }: Props) {
  const base = `tool-${tool.name}`;
  const why = tool.notOffered;
  const fixed = !!tool.unavailable || (why !== undefined && FIXED.has(why.reason));
  return (
    <tr
      data-testid="tool-row"
      data-tool={tool.name}
      data-approval={tool.approval}
      data-enabled={tool.enabled}
      {...(fixed ? { 'data-unavailable': 'true' } : {})}
      {...(why ? { 'data-not-offered': why.reason } : {})}
      aria-busy={busy}
    >
      <th scope="row">
        <div className="tool-name">
          <code id={`${base}-name`}>{tool.name}</code>
          {badgesOf(tool).map((b) => (
            <span key={b} className={`badge tag ${b}`} data-testid={`badge-${b}`}>
              {BADGE_TEXT[b]}
            </span>
          ))}
        </div>
        {tool.title && <div className="tool-title">{tool.title}</div>}
        <div className="hint tool-desc">{tool.description.split('\n')[0]}</div>
        {(why || tool.unavailable) && (
          <div
            className="hint unavailable"
            id={`${base}-unavailable`}
            data-testid="tool-unavailable"
          >
            {why ? why.text : `Not offered to agents: it ${tool.unavailable}.`}
          </div>
        )}
        {tool.grantedUntil !== undefined && (
          <div className="hint grant" data-testid="tool-grant">
            Always allowed for {tool.agent}
            {tool.grantedUntil ? ` until ${formatDateTime(tool.grantedUntil)}` : ''} (choose “Asks
            first” to take it back)
          </div>
        )}
      </th>
      <td>
        <input
          type="checkbox"
          className="toggle"
          checked={tool.enabled && !fixed}
          disabled={busy || fixed}
          {...(why || tool.unavailable ? { 'aria-describedby': `${base}-unavailable` } : {})}
          onChange={(e) => onEnabled(e.target.checked)}
          aria-label={`Offer ${tool.name} to agents`}
          data-testid="tool-enabled"
        />
      </td>
      <td>
        <fieldset className="segmented" disabled={busy || !tool.enabled || fixed}>
          <legend className="visually-hidden">When {tool.name} is called</legend>
          {(['auto', 'ask'] as const).map((mode) => (
            <label key={mode} className={tool.approval === mode ? 'on' : undefined}>
              <input
                type="radio"
                name={`${base}-mode`}
                value={mode}
                checked={tool.approval === mode}
                onChange={() => onApproval(mode)}
                data-testid={`tool-mode-${mode}`}
              />
              {mode === 'auto' ? 'Runs freely' : 'Asks first'}
            </label>
          ))}
        </fieldset>
      </td>
    </tr>
  );
}
