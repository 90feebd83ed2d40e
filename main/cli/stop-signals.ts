/**
 * `airlock serve`'s SIGINT/SIGTERM handling. The first signal stops cleanly (App.stop: local
 * servers get SIGTERM, a grace, then SIGKILL, all side by side). A second one, of either kind,
 * exits at once: `process.exit` runs the process 'exit' hook, which sends SIGKILL to every local
 * server's process group still running (process-group.ts `endAllNow`), so nothing is left behind.
 * Exit codes follow the shell's 128 + signal number.
 */
export interface StopSignalDeps {
  /** The clean stop; called once. */
  stop: (signal: NodeJS.Signals) => void;
  /** Test hook: process.exit. */
  exit?: (code: number) => void;
  /** Test hook: stderr. */
  write?: (text: string) => void;
  /** Test hook: where the handlers go. */
  target?: Pick<NodeJS.Process, 'on' | 'off'>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const CODE: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143 };

/** Installs the handlers; returns a function that removes them. */
export function onStopSignals(d: StopSignalDeps): () => void {
  const target = d.target ?? process;
  const exit = d.exit ?? ((code: number) => process.exit(code));
  const write = d.write ?? ((text: string) => process.stderr.write(text));
  let stopping = false;
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      if (!stopping) {
        stopping = true;
        d.stop(signal);
        return;
      }
      write(`airlock: ${signal} again while stopping: exiting now; local servers get SIGKILL.\n`);
      exit(CODE[signal]);
    };
    target.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) target.off(signal, handler);
  };
}
