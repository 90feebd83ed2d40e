import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { mixedScriptWords } from '../../../common/lookalike';
import { chunkText, reveal, type Part } from './reveal';

/**
 * Text with every invisible or direction-changing character named in a visible mark, and a
 * word that mixes Latin letters with look-alikes from another script named after it.
 */
export function Revealed({ text }: { text: string }) {
  const parts = useMemo(() => reveal(text), [text]);
  return (
    <>
      <Parts parts={parts} />
      <Lookalikes text={text} />
    </>
  );
}

/** The words of a value that mix scripts (common/lookalike.ts), named with their foreign letters. */
function Lookalikes({ text }: { text: string }) {
  const { words, count } = useMemo(() => mixedScriptWords(text), [text]);
  if (count === 0) return null;
  return (
    <mark className="hidden-char lookalike" data-testid="lookalike">
      {' '}
      ⚠ letters from another script inside a Latin word, which may imitate another address or name:{' '}
      {words.map((w, i) => (
        <span key={i}>
          {i > 0 ? '; ' : ''}“<Parts parts={reveal(w.word)} />” has {w.letters.join(', ')}
        </span>
      ))}
      {count > words.length ? ` (and ${count - words.length} more)` : ''}
    </mark>
  );
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
 * The full view (issue 27, item 6): "Show all" on a 50,000-character value froze the page for
 * 6.5 s, and 200,000 never answered. Every part of the value became one element appended to the
 * clipped view's own, and React places appended siblings one by one, each looking past all the
 * others for where it goes: quadratic in the number of marks and spans. The full view is a new
 * element instead, its value cut into blocks of BLOCK_CHARS, BLOCKS_PER_STEP blocks at a time:
 * more as the reader scrolls near the end (or asks), so each step is bounded work whatever the
 * size — budgets allow 4 MiB of arguments.
 */
export const BLOCK_CHARS = 1000;
export const BLOCKS_PER_STEP = 6;
export const PARTS_PER_STEP = 1500;

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
 * The clipped head of a value of any size, revealing only the blocks it needs: the head of a
 * 4 MiB argument costs what the head of a short one does. The rest is counted, not revealed.
 */
export function clipText(text: string): { head: Part[]; hiddenChars: number; hiddenLines: number } {
  const blocks = chunkText(text, BLOCK_CHARS);
  let taken = 0;
  let parts: Part[] = [];
  // Enough blocks for the head: a block of folded marks can read as a few characters.
  while (taken < blocks.length && shownLength(parts) <= CLIP_CHARS) {
    parts = parts.concat(reveal(blocks[taken]!));
    taken++;
  }
  const c = clipParts(parts);
  if (taken === blocks.length) return c;
  let unseen = 0;
  let newlines = 0;
  for (let b = taken; b < blocks.length; b++) {
    const block = blocks[b]!;
    unseen += block.length;
    for (let j = block.indexOf('\n'); j >= 0; j = block.indexOf('\n', j + 1)) newlines++;
  }
  return {
    head: c.head,
    hiddenChars: c.hiddenChars + unseen,
    hiddenLines: Math.max(1, c.hiddenLines) + newlines,
  };
}

function shownLength(parts: Part[]): number {
  let n = 0;
  for (const p of parts) n += 'mark' in p ? p.mark.length : p.text.length;
  return n;
}

/** One block of the full view, revealed once (FullText keeps its parts). */
const Block = memo(function Block({ parts }: { parts: Part[] }) {
  return (
    <div className="text-block">
      <Parts parts={parts} />
    </div>
  );
});

/** The whole value, a step at a time (see BLOCK_CHARS): at most BLOCKS_PER_STEP blocks and about PARTS_PER_STEP marks and runs of text. */
export function FullText({ text, testId }: { text: string; testId?: string | undefined }) {
  const { blocks, partsOf } = useMemo(() => {
    const blocks = chunkText(text, BLOCK_CHARS);
    const cache = new Map<number, Part[]>();
    const partsOf = (i: number) => {
      let p = cache.get(i);
      if (!p) cache.set(i, (p = reveal(blocks[i]!)));
      return p;
    };
    return { blocks, partsOf };
  }, [text]);
  const stepEnd = (from: number) => {
    let n = from;
    let weight = 0;
    while (
      n < blocks.length &&
      n - from < BLOCKS_PER_STEP &&
      (n === from || weight < PARTS_PER_STEP)
    )
      weight += partsOf(n++).length;
    return n;
  };
  const [shown, setShown] = useState(() => stepEnd(0));
  const box = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const more = shown < blocks.length;
  // Near the end of what is shown: the next step. Observed afresh after each step, so a
  // reader already at the end gets the next one too.
  useEffect(() => {
    if (!more || !end.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setShown(stepEnd);
      },
      { root: box.current, rootMargin: '400px' },
    );
    io.observe(end.current);
    return () => io.disconnect();
    // stepEnd reads only blocks and partsOf, which change with the text (and `blocks` with them).
  }, [more, shown, blocks]);
  const left = more ? blocks.slice(shown).reduce((n, b) => n + b.length, 0) : 0;
  return (
    <>
      <div className="text-value full" data-testid={testId} ref={box} tabIndex={0}>
        {blocks.slice(0, shown).map((_, i) => (
          <Block key={i} parts={partsOf(i)} />
        ))}
        {more && <div ref={end} className="text-end" aria-hidden="true" />}
      </div>
      {more && (
        <p className="more-below">
          <button
            type="button"
            className="link"
            onClick={() => setShown(stepEnd)}
            data-testid="show-more"
          >
            Show more
          </button>{' '}
          ({left.toLocaleString()} more characters; scrolling to the end shows them too)
        </p>
      )}
    </>
  );
}

/**
 * A long value, shown as text (multi-line as lines), clipped with a clear
 * "more below" and a button for the full value (issue 16 item 4).
 */
export function ClippedText({ text, testId }: { text: string; testId?: string }) {
  const [full, setFull] = useState(false);
  const c = useMemo(() => clipText(text), [text]);
  const clipped = c.hiddenChars > 0 && !full;
  return (
    <div className="clipped">
      {clipped || c.hiddenChars === 0 ? (
        <div className="text-value" data-testid={testId} key="head">
          <Parts parts={c.head} />
        </div>
      ) : (
        <FullText text={text} testId={testId} key="full" />
      )}
      {/* Over the whole value, clipped or not: a cut must not hide a mixed word (common/lookalike.ts). */}
      <Lookalikes text={text} />
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
