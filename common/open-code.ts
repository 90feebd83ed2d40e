/**
 * The one-time open code (`airlock open`): how the control page is opened without the control
 * token on any command line. A browser started by `xdg-open`/`open`/PowerShell keeps its URL in
 * its argv for its life, readable by any local process (`ps`, /proc/<pid>/cmdline); so the CLI
 * asks the running server for a code (over the owner-only control socket, with the control token
 * in the request) and opens `<server url>/#code=<code>`. The page trades the code, once, for the
 * control token at OPEN_CODE_REDEEM_PATH. Runtime-neutral: main, CLI and renderer import it.
 */

/** The control socket's method that mints a code. Not a ControlApi method: no UI may call it. */
export const OPEN_CODE_MINT_METHOD = 'mintOpenCode';

/** What the socket answers to OPEN_CODE_MINT_METHOD. */
export interface MintedOpenCode {
  code: string;
  /** How long the code stays redeemable. */
  expiresInMs: number;
}

/** `POST {"code": …}` from the control page's own origin → `{"token": …}`. */
export const OPEN_CODE_REDEEM_PATH = '/api/open-code';

export interface RedeemedOpenCode {
  token: string;
}

/** The error code of every refused redemption: used, unknown, expired and foreign look alike. */
export const OPEN_CODE_SPENT = 'OPEN_CODE_SPENT';

export const OPEN_CODE_SPENT_MESSAGE =
  'This link was already used or has expired — run `airlock open` again.';
