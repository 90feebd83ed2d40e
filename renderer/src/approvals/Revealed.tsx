import { useMemo, useState } from 'react';
import { reveal } from './reveal';

/** Text with every invisible or direction-changing character named in a visible mark. */
export function Revealed({ text }: { text: string }) {
  const parts = useMemo(() => reveal(text), [text]);
  return (
    <>
      {parts.map((p, i) =>
        'mark' in p ? (
          <mark key={i} className="hidden-char" title={p.title} data-testid="hidden-char">
            {p.mark}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

/** How much of one value is shown before "more below" (issue 17 item 4: large arguments stay fast). */
export const CLIP_CHARS = 1200;
export const CLIP_LINES = 16;

export function clip(text: string): { head: string; hiddenChars: number; hiddenLines: number } {
  let end = Math.min(text.length, CLIP_CHARS);
  let lines = 0;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= CLIP_LINES) {
      end = i;
      break;
    }
  }
  const rest = text.slice(end);
  return {
    head: text.slice(0, end),
    hiddenChars: rest.length,
    hiddenLines: rest ? rest.split('\n').length - (rest.startsWith('\n') ? 1 : 0) : 0,
  };
}

/**
 * A long value, shown as text (multi-line as lines), clipped with a clear
 * "more below" and a button for the full value (issue 16 item 4).
 */
export function ClippedText({ text, testId }: { text: string; testId?: string }) {
  const [full, setFull] = useState(false);
  const c = useMemo(() => clip(text), [text]);
  const clipped = c.hiddenChars > 0 && !full;
  return (
    <div className="clipped">
      <div className="text-value" data-testid={testId}>
        <Revealed text={clipped ? c.head : text} />
      </div>
      {c.hiddenChars > 0 && (
        <p className="more-below" data-testid="more-below">
          {clipped && (
            <span>
              ▼ More below: {c.hiddenChars.toLocaleString()} more characters
              {c.hiddenLines > 1 ? ` on ${c.hiddenLines.toLocaleString()} lines` : ''}.{' '}
            </span>
          )}
          <button
            type="button"
            className="link"
            onClick={() => setFull(!full)}
            data-testid="show-all"
          >
            {full ? 'Show less' : 'Show all'}
          </button>
        </p>
      )}
    </div>
  );
}
