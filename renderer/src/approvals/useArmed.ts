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
export function useArmed(): {
  armed: boolean;
  /** The same, read at the moment of the event: a key that arrives before the next render. */
  isArmed: () => boolean;
  observe: (el: HTMLElement | null) => void;
} {
  const [armed, setArmedState] = useState(false);
  const armedNow = useRef(false);
  const [el, setEl] = useState<HTMLElement | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const inView = useRef(false);

  const observe = useCallback((node: HTMLElement | null) => setEl(node), []);
  const isArmed = useCallback(() => armedNow.current, []);

  useEffect(() => {
    if (!el) return;
    const setArmed = (value: boolean) => {
      armedNow.current = value;
      // Said at once, not at the next render: a test (or a reader) that sees the card take the
      // keyboard never sees it armed from before.
      el.dataset['armed'] = value ? 'true' : 'false';
      setArmedState(value);
    };
    const update = () => {
      const visible = inView.current && document.visibilityState === 'visible';
      window.clearTimeout(timer.current);
      if (!visible) {
        setArmed(false);
        return;
      }
      timer.current = window.setTimeout(() => setArmed(true), ARM_MS);
    };
    // The card got the keyboard without the user moving it there (the one before it was just
    // decided): its count starts again, so a second press of the key that decided the one before
    // — a double press, a key the user thought missed — does not decide this one unread.
    const rearm = () => {
      setArmed(false);
      update();
    };
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) inView.current = e.isIntersecting;
      update();
    });
    io.observe(el);
    document.addEventListener('visibilitychange', update);
    el.addEventListener(REARM_EVENT, rearm);
    // So it does when the window comes to the front: a window that was behind others counts as
    // visible, and one brought forward (a deep link, a click on a notification) must not take a
    // key the user was pressing in another app (Ctrl/⌘+Enter sends a message in many).
    window.addEventListener('focus', rearm);
    return () => {
      io.disconnect();
      document.removeEventListener('visibilitychange', update);
      el.removeEventListener(REARM_EVENT, rearm);
      window.removeEventListener('focus', rearm);
      window.clearTimeout(timer.current);
    };
  }, [el]);

  return { armed, isArmed, observe };
}

/** Sent to a card that is given the keyboard by the page, not by the user (ApprovalsPage). */
export const REARM_EVENT = 'airlock-rearm';
