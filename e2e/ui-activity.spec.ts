import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { ActivityView } from '../common/contract/index.js';
import { controlApi, waitForPending } from './helpers/control.js';
import { callTool } from './helpers/mcp-client.js';
import { marker, useAirlock } from './helpers/suite.js';
import { openPage } from './helpers/ui.js';

// Issue 8 "Activity": time, agent, tool, decision, outcome, duration;
// filters; a detail view; export to CSV and JSON.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();
const TO = 'bob@example.com';

test.beforeAll(async () => {
  const { server, agent } = airlock();
  const api = controlApi(server);
  await callTool(agent, 'test_echo', { text: 'hello' });
  for (const [label, decision] of [
    ['act-ok', { kind: 'allow_once' }],
    ['act-no', { kind: 'deny', reason: 'Not today' }],
  ] as const) {
    const body = marker(label);
    const call = callTool(agent, 'test_send', { to: TO, body });
    const pending = await waitForPending(server, body);
    await api.decide(pending.id, decision);
    await call;
  }
});

test('every call is listed with its decision and outcome; new calls appear live; details show the approval', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openPage(page, server, '/activity');
  const rows = page.getByTestId('activity-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute('data-decision', 'denied');
  await expect(rows.nth(1)).toHaveAttribute('data-decision', 'approved');
  await expect(rows.nth(1)).toHaveAttribute('data-outcome', 'ok');
  await expect(rows.nth(2)).toContainText('test_echo');
  await expect(rows.nth(2)).toContainText('Ran freely');
  await expect(rows.nth(2)).toContainText(/\d+ ms|\d+(\.\d)? s/);

  await callTool(agent, 'test_echo', { text: 'live' });
  await expect(rows).toHaveCount(4);

  await rows
    .nth(1)
    .getByRole('button', { name: /^Details of test_send/ })
    .click();
  const detail = page.getByTestId('activity-detail');
  await expect(detail).toContainText('Denied');
  await expect(detail).toContainText('Reason: Not today');
  await expect(detail).toContainText(`"to": "${TO}"`);
  await rows
    .nth(1)
    .getByRole('button', { name: /^Details of test_send/ })
    .click();
  await expect(detail).toHaveCount(0);
});

test('filters narrow the list; exports hold exactly the calls shown', async ({ page }) => {
  const { server } = airlock();
  await openPage(page, server, '/activity');
  const rows = page.getByTestId('activity-row');
  await expect(rows).toHaveCount(4);
  await page.getByLabel('Decision').selectOption('denied');
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Decision').selectOption('');
  await page.getByLabel('Tool').selectOption('test_echo');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Outcome').selectOption('error');
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('activity-empty')).toContainText('No call matches these filters');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows).toHaveCount(4);
  await page.getByLabel('Agent').selectOption('e2e-agent');
  await page.getByLabel('Tool').selectOption('test_send');
  await expect(rows).toHaveCount(2);

  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toMatch(/^airlock-activity-.*\.csv$/);
  const csv = readFileSync(await csvDownload.path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe(
    'id,at,agent,tool,decision,outcome,durationMs,waitMs,decisionKind,grantId,event,approvalId,argsDigest,detail',
  );
  expect(csv.slice(1).map((l) => l.split(',').slice(2, 5).join(','))).toEqual([
    'e2e-agent,test_send,denied',
    'e2e-agent,test_send,approved',
  ]);

  const [jsonDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const json = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8')) as ActivityView[];
  const all = await controlApi(server).listActivity({ tool: 'test_send' });
  expect(json).toEqual(all);
});
