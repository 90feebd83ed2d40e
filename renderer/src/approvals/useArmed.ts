import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * How long a request must have been on screen before a decision on it counts
 * (issue 16 item 3, issue 17 item 1): a card that appears under the cursor or
 * under a held key is never decided by the click or key meant for something else.
 */
export const ARM_MS = 800;

/**
 * True once the element has been visible — intersecting the viewport, in a
 * visible document — for ARM_MS without interruption. Scrolling it away or
 * hiding the window starts the count again.
 */
export function useArmed(): { armed: boolean; observe: (el: HTMLElement | null) => void } {
  const [armed, setArmed] = useState(false);
  const [el, setEl] = useState<HTMLElement | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const inView = useRef(false);

  const observe = useCallback((node: HTMLElement | null) => setEl(node), []);

  useEffect(() => {
    if (!el) return;
    const update = () => {
      const visible = inView.current && document.visibilityState === 'visible';
      window.clearTimeout(timer.current);
      if (!visible) {
        setArmed(false);
        return;
      }
      timer.current = window.setTimeout(() => setArmed(true), ARM_MS);
    };
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) inView.current = e.isIntersecting;
      update();
    });
    io.observe(el);
    document.addEventListener('visibilitychange', update);
    return () => {
      io.disconnect();
      document.removeEventListener('visibilitychange', update);
      window.clearTimeout(timer.current);
    };
  }, [el]);

  return { armed, observe };
}
