import { ControlError, type ControlApi } from '../../common/contract/index.js';
import { looseningSummary, type ServerLoosening } from '../gateway/loosening.js';

/**
 * Issue 17.7, the CLI's side: a loosening change sent to a running Airlock
 * comes back as CONFIRM_IN_WINDOW; the CLI says so and waits for the user's
 * answer in the window. Ctrl-C stops waiting (the change stays pending until
 * the user decides or it expires).
 */
export async function confirmedInWindow<T>(
  api: ControlApi,
  call: () => Promise<T>,
  say: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof ControlError) || err.code !== 'CONFIRM_IN_WINDOW') throw err;
    const id = /Change id: ([0-9a-f-]+)/.exec(err.message)?.[1];
    if (!id) throw err;
    say(`${err.message.replace(/\s*Change id: .*$/, '')} (Ctrl-C stops waiting.)`);
    for (;;) {
      const view = await api.waitPolicyChange(id);
      if (view.state === 'pending') continue;
      if (view.state === 'confirmed') return undefined;
      throw new ControlError(
        view.state === 'failed' ? 'INTERNAL' : 'CONFLICT',
        view.state === 'rejected'
          ? "You rejected the change in Airlock's window; nothing changed."
          : view.state === 'expired'
            ? 'Nobody confirmed the change within 10 minutes; nothing changed.'
            : `The change was confirmed but failed: ${view.error ?? 'unknown error'}`,
      );
    }
  }
}

/**
 * Without a running Airlock there is no window to confirm in: the CLI's
 * in-process core refuses loosening rather than applying it unattended.
 */
export function refuseLoosening(api: ControlApi, servers?: ServerLoosening): ControlApi {
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return async (...params: unknown[]) => {
        const summary = await looseningSummary(target, prop, params, servers);
        if (summary)
          throw new ControlError(
            'FORBIDDEN',
            `Airlock is not running, so there is no window to confirm this in: ${summary}. ` +
              'Start Airlock (the desktop app, or `airlock serve` and its page), run the command ' +
              'again, and confirm in the window.',
          );
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, params);
      };
    },
  });
}
