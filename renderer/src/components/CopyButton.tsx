import { useEffect, useRef, useState } from 'react';
import { copyText } from '../lib/clipboard';

/**
 * "Copy" that says "Copied" for a moment (announced politely). `selectOnFail`
 * names the element to select when the clipboard is refused.
 */
export function CopyButton({
  text,
  label,
  selectOnFail,
  className = 'small',
  testId,
}: {
  text: string;
  /** Accessible name, e.g. "Copy the Cursor setup". */
  label: string;
  selectOnFail?: () => HTMLElement | null;
  className?: string;
  testId?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'selected'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    const ok = await copyText(text, selectOnFail?.());
    setState(ok ? 'copied' : 'selected');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 2000);
  };

  return (
    <button
      type="button"
      className={`copy ${className}`}
      aria-label={label}
      onClick={() => void copy()}
      data-testid={testId}
    >
      {/* Fixed width via CSS: the label change never moves the layout. */}
      <span aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'selected' ? 'Press Ctrl+C' : 'Copy'}
      </span>
    </button>
  );
}
