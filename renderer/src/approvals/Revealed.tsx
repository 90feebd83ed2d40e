import { useMemo, useState } from 'react';
import { reveal, type Part } from './reveal';

/** Text with every invisible or direction-changing character named in a visible mark. */
export function Revealed({ text }: { text: string }) {
  const parts = useMemo(() => reveal(text), [text]);
  return <Parts parts={parts} />;
}

function Parts({ parts }: { parts: Part[] }) {
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

/**
 * The head of a revealed value, counted as it reads on screen: a mark for
 * 20,000 blanks is a few characters, so what follows it stays in sight.
 */
export function clipParts(parts: Part[]): {
  head: Part[];
  hiddenChars: number;
  hiddenLines: number;
} {
  const head: Part[] = [];
  let budget = CLIP_CHARS;
  let lines = 0;
  let i = 0;
  let rest = '';
  for (; i < parts.length; i++) {
    const p = parts[i]!;
    if ('mark' in p) {
      if (budget <= 0) break;
      head.push(p);
      budget -= p.mark.length;
      continue;
    }
    let end = Math.min(p.text.length, Math.max(0, budget));
    for (let j = 0; j < end; j++) {
      if (p.text.charCodeAt(j) === 10 && ++lines >= CLIP_LINES) {
        end = j;
        break;
      }
    }
    if (end > 0) head.push({ text: p.text.slice(0, end) });
    budget -= end;
    if (end < p.text.length) {
      rest = p.text.slice(end);
      i++;
      break;
    }
  }
  let hiddenChars = rest.length;
  let hiddenText = rest;
  for (; i < parts.length; i++) {
    const p = parts[i]!;
    hiddenChars += 'mark' in p ? 1 : p.text.length;
    if (!('mark' in p)) hiddenText += p.text;
  }
  const hiddenLines = hiddenChars
    ? hiddenText.split('\n').length - (hiddenText.startsWith('\n') ? 1 : 0)
    : 0;
  return { head, hiddenChars, hiddenLines };
}

/**
 * A long value, shown as text (multi-line as lines), clipped with a clear
 * "more below" and a button for the full value (issue 16 item 4).
 */
export function ClippedText({ text, testId }: { text: string; testId?: string }) {
  const [full, setFull] = useState(false);
  const parts = useMemo(() => reveal(text), [text]);
  const c = useMemo(() => clipParts(parts), [parts]);
  const clipped = c.hiddenChars > 0 && !full;
  return (
    <div className="clipped">
      <div className="text-value" data-testid={testId}>
        <Parts parts={clipped ? c.head : parts} />
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
