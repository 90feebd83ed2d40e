/**
 * The system browser for the CLI's commands that hand the user a page (`airlock open`,
 * `airlock connect google`, `airlock remote login`). Each prints its URL first, so the browser is
 * a convenience: without a display, or when it fails to start, the printed URL is the way in.
 */
export interface Opener {
  /** Opens `url` in the system browser. */
  open: (url: string) => Promise<void>;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

/**
 * Through the `open` package (macOS, Windows quoting, WSL), loaded on first use so no command
 * pays for it until it opens a page. The child's own errors are ignored and it is not waited on.
 */
export const systemOpener: Opener = {
  open: async (url) => {
    const { default: open } = await import('open');
    const child = await open(url);
    child.on('error', () => {});
    child.unref();
  },
  env: process.env,
  platform: process.platform,
};

/**
 * Opens `url` unless there is nowhere to show it — Linux without a display (ssh, a container):
 * 'skipped'. WSL is Linux with a Windows desktop behind it: `open` starts the Windows browser
 * through PowerShell when not in ssh or a container, DISPLAY or not (WSL 1, WSL 2 without WSLg);
 * WSL_DISTRO_NAME is set in WSL's own sessions, not in an ssh one nor a container.
 * Never throws: 'failed' when the browser could not be started (or `url` could not be had).
 */
export async function openInBrowser(
  /** The URL, or how to get it: asked only when there is a browser to open (a one-time code). */
  url: string | (() => Promise<string>),
  opener: Opener = systemOpener,
): Promise<'opened' | 'skipped' | 'failed'> {
  const { env } = opener;
  const wsl = Boolean(env.WSL_DISTRO_NAME) && !env.SSH_CONNECTION && !env.SSH_CLIENT;
  const display = opener.platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY) || wsl;
  if (!display) return 'skipped';
  try {
    await opener.open(typeof url === 'string' ? url : await url());
    return 'opened';
  } catch {
    return 'failed';
  }
}

/**
 * The wait of a sign-in in the browser (`connect google`, `remote login`): asks the core again
 * until the flow is past 'waiting' and 'exchanging' — each ask a long poll of 25 s, under the
 * control API's 30 s cap — and gives back its last view. Ctrl-C cancels the flow in the core, which
 * ends it, so the next answer is the cancelled view; the handler is gone once the wait is over.
 * `first` (opening the browser) runs under the handler: a Ctrl-C while the opener is still
 * starting must cancel the flow too, not just end the CLI and leave the flow waiting in the core.
 */
export async function waitOutFlow<V extends { state: string }>(
  wait: (waitMs: number) => Promise<V>,
  cancel: () => Promise<unknown>,
  first: () => Promise<unknown> = async () => {},
): Promise<V> {
  const onInterrupt = () => void cancel().catch(() => {});
  process.once('SIGINT', onInterrupt);
  try {
    await first();
    let view: V;
    do view = await wait(25_000);
    while (view.state === 'waiting' || view.state === 'exchanging');
    return view;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
