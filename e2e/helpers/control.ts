import type { ApprovalView, ControlApi } from '../../common/contract/index.js';
import { httpControlClient, subscribeEvents } from '../../common/http-control-client.js';
import { expect, type Page } from '@playwright/test';
import type { RunningServer } from './airlock-server.js';

/** ControlApi over HTTP with the control token, the way the page and the CLI reach the core. */
export function controlApi(server: RunningServer): ControlApi {
  return httpControlClient(server.url, server.controlToken);
}

/** Raw POST /api/rpc, for status-code checks and truly concurrent calls. */
export async function rpc(
  server: RunningServer,
  token: string,
  method: string,
  params: unknown[] = [],
): Promise<{ status: number; body: { result?: unknown; error?: string; message?: string } }> {
  const res = await fetch(`${server.url}/api/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ method, params }),
  });
  return {
    status: res.status,
    body: (await res.json().catch(() => ({}))) as {
      result?: unknown;
      error?: string;
      message?: string;
    },
  };
}

/**
 * Resolves with the pending approval whose arguments contain `marker`:
 * follows /api/events (as the page does) and checks listPending once the
 * stream is up, so a request made before or after the call is caught.
 */
export function waitForPending(
  server: RunningServer,
  marker: string,
  timeoutMs = 15_000,
): Promise<ApprovalView> {
  const api = controlApi(server);
  const matches = (a: ApprovalView) =>
    a.state === 'pending' && JSON.stringify(a.arguments).includes(marker);
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const done = (fn: () => void) => {
      clearTimeout(timer);
      stop();
      fn();
    };
    const timer = setTimeout(
      () =>
        done(() => reject(new Error(`no pending approval with ${marker} within ${timeoutMs} ms`))),
      timeoutMs,
    );
    stop = subscribeEvents(
      server.url,
      server.controlToken,
      (e) => {
        if (e.type === 'approval.requested' && matches(e.approval)) done(() => resolve(e.approval));
      },
      (connected) => {
        if (!connected) return;
        api.listPending().then((list) => {
          const hit = list.find(matches);
          if (hit) done(() => resolve(hit));
        }, reject);
      },
    );
  });
}

/** Opens the control URL (token in the fragment) and waits for the app to be connected. */
export async function openApprovals(page: Page, server: RunningServer, path = ''): Promise<void> {
  await page.goto(server.controlUrl);
  if (path) await page.evaluate(`location.hash = ${JSON.stringify(path)}`);
  await expect(page.getByTestId('run-state')).toHaveText('Running');
}

/** The card of the pending request whose arguments contain `marker`. */
export function card(page: Page, marker: string) {
  return page
    .getByTestId('approval-card')
    .filter({ has: page.getByTestId('approval-args').getByText(marker) });
}
