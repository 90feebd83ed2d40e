/**
 * Copies text. The async Clipboard API needs a focused, secure context; when
 * it refuses, select the given element so the user can press Ctrl/Cmd+C.
 */
export async function copyText(text: string, fallback?: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallback) window.getSelection()?.selectAllChildren(fallback);
    return false;
  }
}
