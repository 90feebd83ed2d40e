/**
 * Why a local server is not available, in words for the server list
 * (`airlock remote list`, RemoteView.detail, the Servers page). The message is
 * already the status text and carries no secret: stderr excerpts are redacted
 * by the process log before they get here.
 */
export class StdioError extends Error {
  override name = 'StdioError';
}

export function isStdioError(err: unknown): err is StdioError {
  return err instanceof StdioError;
}

/** Node's spawn errors as a user reads them. */
export function spawnFailure(command: string, err: NodeJS.ErrnoException): StdioError {
  switch (err.code) {
    case 'ENOENT':
      return new StdioError(
        `could not start: "${command}" was not found (give the full path, or check the working directory and PATH)`,
      );
    case 'EACCES':
      return new StdioError(`could not start: "${command}" is not executable (permission denied)`);
    default:
      return new StdioError(`could not start "${command}": ${err.code ?? err.message}`);
  }
}

export function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exited with code ${code ?? '?'}`;
}
