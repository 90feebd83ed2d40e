import { useId } from 'react';
import type { EnvRow } from './local-model';

/**
 * The "local server" part of the add form (issue 15): program, arguments one
 * per line, working directory, environment. A variable marked secret is sent
 * once to the core, kept in the OS keychain and never shown again.
 */
export function LocalServerFields({
  command,
  args,
  cwd,
  rows,
  onChange,
  disabled,
}: {
  command: string;
  args: string;
  cwd: string;
  rows: EnvRow[];
  onChange: (
    patch: Partial<{ command: string; args: string; cwd: string; rows: EnvRow[] }>,
  ) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const setRow = (i: number, patch: Partial<EnvRow>) =>
    onChange({ rows: rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <fieldset className="local-server" disabled={disabled}>
      <legend>Local command</legend>
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${id}-cmd`}>Program</label>
          <input
            id={`${id}-cmd`}
            value={command}
            onChange={(e) => onChange({ command: e.target.value })}
            placeholder="npx"
            autoComplete="off"
            spellCheck={false}
            data-testid="local-command"
            aria-describedby={`${id}-cmd-h`}
          />
          <span id={`${id}-cmd-h`} className="hint">
            Run directly, never through a shell. Give a full path if it is not on PATH.
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-cwd`}>Working folder (optional)</label>
          <input
            id={`${id}-cwd`}
            value={cwd}
            onChange={(e) => onChange({ cwd: e.target.value })}
            placeholder="your home folder"
            autoComplete="off"
            spellCheck={false}
            data-testid="local-cwd"
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-args`}>Arguments, one per line</label>
        <textarea
          id={`${id}-args`}
          value={args}
          rows={3}
          onChange={(e) => onChange({ args: e.target.value })}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n/Users/me/Documents'}
          spellCheck={false}
          data-testid="local-args"
        />
      </div>
      <fieldset className="headers">
        <legend>Environment variables</legend>
        {rows.length === 0 && (
          <p className="hint">
            None. Airlock passes only PATH, HOME, the locale and temp folders, plus what you add
            here.
          </p>
        )}
        {rows.map((r, i) => (
          <div className="header-row" key={i}>
            <div className="field">
              <label htmlFor={`${id}-en${i}`}>Variable {i + 1} name</label>
              <input
                id={`${id}-en${i}`}
                value={r.name}
                placeholder="API_KEY"
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setRow(i, { name: e.target.value })}
                data-testid={`env-name-${i}`}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-ev${i}`}>Variable {i + 1} value</label>
              <input
                id={`${id}-ev${i}`}
                type={r.secret ? 'password' : 'text'}
                value={r.value}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => setRow(i, { value: e.target.value })}
                data-testid={`env-value-${i}`}
              />
            </div>
            <label className="inline">
              <input
                type="checkbox"
                checked={r.secret}
                onChange={(e) => setRow(i, { secret: e.target.checked })}
                data-testid={`env-secret-${i}`}
              />{' '}
              Secret
            </label>
            <button
              type="button"
              className="small"
              aria-label={`Remove variable ${i + 1}`}
              onClick={() => onChange({ rows: rows.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          className="small"
          onClick={() => onChange({ rows: [...rows, { name: '', value: '', secret: true }] })}
        >
          Add a variable
        </button>
      </fieldset>
    </fieldset>
  );
}
