import { useId } from 'react';

export interface HeaderRow {
  name: string;
  value: string;
}

/** Rows to a header record; blank rows are skipped, a value without a name is an error. */
export function headersFrom(
  rows: HeaderRow[],
): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  const headers: Record<string, string> = {};
  for (const [i, r] of rows.entries()) {
    const name = r.name.trim();
    if (!name && !r.value) continue;
    if (!name) return { ok: false, error: `Header ${i + 1} has a value but no name.` };
    if (Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase()))
      return { ok: false, error: `Header "${name}" is given twice.` };
    headers[name] = r.value;
  }
  return { ok: true, headers };
}

/**
 * Extra request headers (e.g. `X-Api-Key`). Values are write-only: typed
 * here, sent once to the core, kept in the OS keychain, never shown again.
 */
export function HeaderRows({
  rows,
  onChange,
  disabled,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const set = (i: number, patch: Partial<HeaderRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="headers" disabled={disabled}>
      <legend>Extra headers</legend>
      {rows.length === 0 && (
        <p className="hint">None. Add one if the server wants an API-key header.</p>
      )}
      {rows.map((r, i) => (
        <div className="header-row" key={i}>
          <div className="field">
            <label htmlFor={`${id}-n${i}`}>Header {i + 1} name</label>
            <input
              id={`${id}-n${i}`}
              value={r.name}
              placeholder="X-Api-Key"
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set(i, { name: e.target.value })}
              data-testid={`header-name-${i}`}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-v${i}`}>Header {i + 1} value</label>
            <input
              id={`${id}-v${i}`}
              type="password"
              value={r.value}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set(i, { value: e.target.value })}
              data-testid={`header-value-${i}`}
            />
          </div>
          <button
            type="button"
            className="small"
            aria-label={`Remove header ${i + 1}`}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="small"
        onClick={() => onChange([...rows, { name: '', value: '' }])}
      >
        Add a header
      </button>
    </fieldset>
  );
}
