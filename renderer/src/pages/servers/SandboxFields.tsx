import { useId } from 'react';
import type { NetworkAccess } from '../../../../common/contract';
import type { SandboxFieldsState } from './sandbox-model';

const NETWORK: { value: NetworkAccess; label: string }[] = [
  { value: 'none', label: 'No network' },
  { value: 'hosts', label: 'Only these hosts' },
  { value: 'any', label: 'Any host' },
];

/**
 * What a local server's sandbox lets it reach (issue 35): folders it may read, folders it may
 * read and write, the network, and whether it may run without a sandbox where this computer
 * has none. Airlock refuses its own data folder, the keychain and your whole home folder.
 */
export function SandboxFields({
  value,
  onChange,
  isNew,
  disabled,
}: {
  value: SandboxFieldsState;
  onChange: (next: SandboxFieldsState) => void;
  isNew?: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  const set = (patch: Partial<SandboxFieldsState>) =>
    onChange({ ...value, ...patch, touched: true });
  return (
    <fieldset className="sandbox" disabled={disabled} data-testid="sandbox-fields">
      <legend>What it may reach (sandbox)</legend>
      {isNew && !value.touched && (
        <p className="hint">
          By default: its working folder read-write and any host. Nothing else of yours: not your
          home folder, not Airlock&apos;s data, not the keychain.
        </p>
      )}
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${id}-w`}>Folders it may read and write, one per line</label>
          <textarea
            id={`${id}-w`}
            rows={2}
            value={value.write}
            onChange={(e) => set({ write: e.target.value })}
            placeholder="/Users/me/project"
            spellCheck={false}
            data-testid="sandbox-write"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-r`}>Folders or files it may only read, one per line</label>
          <textarea
            id={`${id}-r`}
            rows={2}
            value={value.read}
            onChange={(e) => set({ read: e.target.value })}
            placeholder="~/Documents/reference"
            spellCheck={false}
            data-testid="sandbox-read"
          />
        </div>
      </div>
      <div role="radiogroup" aria-label="Network">
        {NETWORK.map((n) => (
          <label className="radio" key={n.value}>
            <input
              type="radio"
              name={`${id}-net`}
              checked={value.network === n.value}
              onChange={() => set({ network: n.value })}
              data-testid={`sandbox-network-${n.value}`}
            />
            {n.label}
          </label>
        ))}
      </div>
      {value.network === 'hosts' && (
        <div className="field">
          <label htmlFor={`${id}-h`}>Hosts, one per line (host, host:port or *.domain)</label>
          <textarea
            id={`${id}-h`}
            rows={2}
            value={value.hosts}
            onChange={(e) => set({ hosts: e.target.value })}
            placeholder={'registry.npmjs.org\napi.github.com'}
            spellCheck={false}
            data-testid="sandbox-hosts"
          />
        </div>
      )}
      <label className="inline">
        <input
          type="checkbox"
          checked={value.allowUnsandboxed}
          onChange={(e) => set({ allowUnsandboxed: e.target.checked })}
          data-testid="sandbox-allow-unsandboxed"
        />{' '}
        Run it without a sandbox where this computer has none (it could then read and change
        anything you can)
      </label>
    </fieldset>
  );
}
