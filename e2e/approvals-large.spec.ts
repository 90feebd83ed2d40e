import { expect, test } from '@playwright/test';
import { callTool } from './helpers/mcp-client.js';
import { card, openApprovals } from './helpers/control.js';
import { marker, useAirlock } from './helpers/suite.js';

// Issue 27, item 6: "Show all" on a 50,000-character argument froze the approval page for 6.5 s;
// at 200,000 it never answered. Whatever the size (budgets allow 4 MiB of arguments), the page
// answers the next click: each is an event the page must handle, no clock decides.
const airlock = useAirlock();

for (const [kind, value] of [
  // Every other character hidden: one mark each, the case that froze the page.
  ['hidden characters', 'a\u200b'.repeat(150_000)],
  ['plain text', 'lorem ipsum dolor sit amet '.repeat(40_000)],
] as const) {
  test(`${kind}, ${value.length.toLocaleString('en')} characters: Show all, Show less, Show more and Deny all answer`, async ({
    page,
  }) => {
    const { server, agent } = airlock();
    await openApprovals(page, server);
    const m = marker('large');
    const call = callTool(agent, 'test_send', { to: 'ann@example.com', body: `${m} ${value}` });
    const c = card(page, m);
    const arg = c.locator('[data-arg="body"]');
    await expect(arg.getByTestId('more-below')).toContainText('More below');

    await arg.getByTestId('show-all').click();
    const blocks = arg.locator('.text-block');
    await expect(blocks.first()).toBeVisible();
    const first = await blocks.count();
    expect(first).toBeGreaterThan(0);
    // The next click is handled: back to the head.
    await arg.getByTestId('show-all').click();
    await expect(arg.getByTestId('more-below')).toContainText('More below');
    await expect(blocks).toHaveCount(0);

    // Open again and ask for more: the view grows a step at a time, and still answers.
    await arg.getByTestId('show-all').click();
    await arg.getByTestId('show-more').click();
    await expect.poll(() => blocks.count()).toBeGreaterThan(first);
    const second = await blocks.count();
    // Scrolled to its end, the view shows the next step by itself.
    await arg.locator('.text-value.full').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(() => blocks.count()).toBeGreaterThan(second);
    await c.getByRole('button', { name: 'Deny' }).click();
    await c.getByRole('button', { name: 'Deny request' }).click();
    expect((await call).isError).toBe(true);
  });
}
