/**
 * The one-time open code of `airlock open` on the page's side (common/open-code.ts): trading it
 * for the control token, and what the page is told when that fails.
 */
import { codeUnits, textPrefix } from '../../../common/text-cut';
import { ControlError, type ControlErrorCode } from '../../../common/contract';
import {
  OPEN_CODE_REDEEM_PATH,
  OPEN_CODE_SPENT,
  OPEN_CODE_SPENT_MESSAGE,
  type RedeemedOpenCode,
} from '../../../common/open-code';

export const TOKEN_KEY = 'airlock.controlToken';
/**
 * Set (never to the code) while this tab's open code is being traded, cleared once the trade
 * settles: a reload mid-trade finds the address bare and the code spent, and says so (NoToken).
 */
export const CODE_TRIED_KEY = 'airlock.openCodeTried';

/** What a failed redemption answers, other than the route's own OPEN_CODE_SPENT. */
export const OPEN_CODE_FAILED = 'OPEN_CODE_FAILED';

function redeemFailed(message: string): ControlError {
  return new ControlError(OPEN_CODE_FAILED as ControlErrorCode, message);
}

/** The server's own `{error, message}`, when its answer has one. */
async function answerOf(res: Response): Promise<{ error?: unknown; message?: unknown } | null> {
  try {
    return (await res.json()) as { error?: unknown; message?: unknown } | null;
  } catch {
    return null;
  }
}

/**
 * Trades a one-time open code for the control token (common/open-code.ts), once, and keeps the
 * token for this tab as `#token=` would. Fails with openCodeSpent() only on the route's own
 * 410 OPEN_CODE_SPENT (used, unknown, expired); anything else (unreachable, another status, an
 * answer without a token) fails with OPEN_CODE_FAILED saying what it was.
 */
export async function redeemOpenCode(
  origin: string,
  code: string,
  store: Storage = sessionStorage,
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  try {
    return await trade(origin, code, store, fetchImpl);
  } finally {
    // Settled, whichever way: the page says how; only a trade cut short leaves the mark.
    store.removeItem(CODE_TRIED_KEY);
  }
}

async function trade(
  origin: string,
  code: string,
  store: Storage,
  fetchImpl: typeof fetch,
): Promise<string> {
  if (!code) throw openCodeSpent();
  let res: Response;
  try {
    res = await fetchImpl(`${origin}${OPEN_CODE_REDEEM_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw redeemFailed(
      `Could not reach Airlock to open this link (${detail}). Is it still running? Run \`airlock open\` again.`,
    );
  }
  const answer = await answerOf(res);
  if (!res.ok) {
    if (res.status === 410 && answer?.error === OPEN_CODE_SPENT) throw openCodeSpent();
    const said =
      typeof answer?.message === 'string' ? `: ${textPrefix(answer.message, 200, codeUnits)}` : '';
    throw redeemFailed(
      `Airlock did not open this link (HTTP ${res.status}${said}). Run \`airlock open\` again.`,
    );
  }
  const token = (answer as Partial<RedeemedOpenCode> | null)?.token;
  if (typeof token !== 'string' || !token)
    throw redeemFailed(
      "Airlock's answer to this link held no control token. Run `airlock open` again.",
    );
  store.setItem(TOKEN_KEY, token);
  return token;
}

/** What every call answers when the page's open code was refused: the page says so (NoToken). */
export function openCodeSpent(): ControlError {
  return new ControlError(OPEN_CODE_SPENT as ControlErrorCode, OPEN_CODE_SPENT_MESSAGE);
}
