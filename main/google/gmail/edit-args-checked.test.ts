import { describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';

/**
 * "Edit & Allow" checks the edited arguments as the agent's own were checked before the card was
 * made (call-pipeline.ts): the tool's schema, then the tool's own parser (`validateArgs`, Gmail's
 * composer). Before, only the schema was read, so an edit Gmail's composer refuses was approved
 * and failed once it ran; the user could no longer fix it. Through a real App, MCP client and the
 * Gmail source against the fake Gmail API.
 */
const gmailApp = testbedAppPerTest(gmailTestbed);

describe('Edit & Allow runs the tool’s own argument checks before approving', () => {
  it('an edited recipient the composer refuses is refused with its words; the request stays pending and can be edited again', async () => {
    const { bed, a, client } = await gmailApp.start({
      settings: { approvals: { outcomeWindowMinutes: 0 } },
    });
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'gmail_send',
      arguments: { to: ['carol@example.com'], subject: 'Figures', body: 'Q3.' },
    });
    const card = await requested;
    // A string the schema takes (an array of strings) that is no address at all.
    await expect(
      a.control.decide(card.id, {
        kind: 'allow_edited',
        arguments: { ...card.arguments, to: ['carol at example dot com'] },
      }),
    ).rejects.toThrow(/edited arguments do not fit gmail_send: .*not (a valid|an) e-mail address/);
    expect((await a.control.getApproval(card.id)).state).toBe('pending');
    expect(bed.fake.sent).toHaveLength(0);

    await a.control.decide(card.id, {
      kind: 'allow_edited',
      arguments: { ...card.arguments, to: ['dave@example.com'] },
    });
    expect((await call).isError).toBeFalsy();
    expect(bed.fake.sent).toHaveLength(1);
  });
});
