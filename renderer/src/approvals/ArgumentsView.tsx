import { useMemo, useState } from 'react';
import { ClippedText, Revealed } from './Revealed';

export const MAX_FIELDS = 60;

/**
 * The exact arguments, readable: one row per argument, text as text (with
 * its line breaks), other values as JSON; every value clipped with "more
 * below" and hidden characters named. The raw JSON is one click away and only
 * built when asked for, so a request with megabytes of arguments paints fast.
 */
export function ArgumentsView({ args }: { args: Record<string, unknown> }) {
  const [json, setJson] = useState(false);
  const entries = useMemo(() => Object.entries(args ?? {}), [args]);
  const shown = entries.slice(0, MAX_FIELDS);
  return (
    <section className="args" aria-label="Exact arguments">
      <div className="args-head">
        <span className="args-title">Exact arguments</span>
        <button
          type="button"
          className="link"
          onClick={() => setJson(!json)}
          data-testid="args-json-toggle"
          aria-pressed={json}
        >
          {json ? 'Show as fields' : 'Show as JSON'}
        </button>
      </div>
      {json ? (
        <ClippedText text={JSON.stringify(args, null, 2)} testId="approval-args-json" />
      ) : entries.length === 0 ? (
        <p className="hint" data-testid="approval-args">
          (no arguments)
        </p>
      ) : (
        <dl className="arg-list" data-testid="approval-args">
          {shown.map(([k, v]) => (
            <div key={k} className="arg" data-testid="approval-arg" data-arg={k}>
              {/* A name is the agent's words too: a look-alike "to\u200b" or a reordering override
                  in it is named, as in the values (issue 17 item 8). */}
              <dt className="mono">
                <Revealed text={k} />
              </dt>
              <dd>
                {typeof v === 'string' ? (
                  <ClippedText text={v} />
                ) : (
                  <ClippedText text={JSON.stringify(v, null, 2) ?? String(v)} />
                )}
              </dd>
            </div>
          ))}
          {/* The rest named, not only counted: an argument past the rows (`bcc`, `forward_to`)
              may change where the call goes, and a count says nothing of which. The names are
              the agent's words too: revealed and clipped as any value. */}
          {entries.length > shown.length && (
            <div className="more-below" data-testid="approval-args-unshown">
              <p>
                ▼ {entries.length - shown.length} more arguments, not shown as fields (use “Show as
                JSON” to see them all):
              </p>
              <ClippedText
                text={entries
                  .slice(shown.length)
                  .map(([k]) => k)
                  .join(', ')}
              />
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
