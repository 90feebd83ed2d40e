import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { bridgeGoogleApis } from '../fake-google/api-bridge.js';
import { FakeCalendarApi } from '../fake-google/calendar-fake.js';
import { FakeGoogle } from '../fake-google/server.js';
import {
  addAgent,
  newProfile,
  startServer,
  type Profile,
  type RunningServer,
} from './airlock-server.js';
import { controlApi, waitForPending } from './control.js';
import { callTool, connectAgent, type Agent } from './mcp-client.js';
import { settledFlow } from '../../test-support/google-flow.js';

/**
 * An Airlock with something on every page, for the accessibility scan and
 * the README screenshots: a Google account (loopback fake), a remote server
 * (in-process upstream), two agents, some activity and three pending
 * approvals (an e-mail, an event, a test message).
 */
export interface FullState {
  profile: Profile;
  server: RunningServer;
  agent: Agent;
  google: FakeGoogle;
  upstream: FakeUpstream;
  stop: () => Promise<void>;
}

export async function startFullState(): Promise<FullState> {
  const google = new FakeGoogle({ user: 'alice@example.com' });
  await google.start();
  // Calendar behind the fake's OAuth, with Alice's primary calendar as Google always has one: the
  // event left waiting is checked against it before it is put to the user (issue 33 item 4).
  const calendar = new FakeCalendarApi({ 'cal-alice': { email: 'alice@example.com' } });
  await calendar.start();
  calendar.addCalendar('alice@example.com', {
    id: 'alice@example.com',
    summary: 'Alice',
    timeZone: 'Europe/Berlin',
    primary: true,
  });
  bridgeGoogleApis(google, {
    calendar: { root: calendar.rootUrl, tokens: { 'alice@example.com': 'cal-alice' } },
  });
  const upstream = new FakeUpstream({
    name: 'tickets',
    tools: [
      {
        name: 'list_tickets',
        description: 'Lists open tickets.',
        annotations: { readOnlyHint: true },
      },
      { name: 'close_ticket', description: 'Closes a ticket.' },
    ],
  });
  await upstream.start();
  const profile = newProfile('airlock-ui-');
  const token = await addAgent(profile, 'claude-code');
  const server = await startServer(profile, { env: google.env() });
  const api = controlApi(server);

  await api.setGoogleClient({ json: google.clientFile() });
  const start = await api.startGoogleConnect({ openBrowser: false });
  await fetch(start.authUrl); // the fake consents at once and redirects to Airlock's loopback listener
  const flow = await settledFlow(api, start.flowId);
  if (flow.state !== 'connected')
    throw new Error(`google connect ended ${flow.state}: ${flow.error?.message}`);
  await api.addRemote({ name: 'tickets', url: upstream.url });
  await api.addAgent('cursor');

  const agent = await connectAgent(server.mcpUrl, token, 'claude-code');
  await callTool(agent, 'test_echo', { text: 'hello' });
  const sent = callTool(agent, 'test_send', { to: 'bob@example.com', body: 'Build is green.' });
  await api.decide((await waitForPending(server, 'Build is green.')).id, { kind: 'allow_once' });
  await sent;
  const denied = callTool(agent, 'test_send', { to: 'all@example.com', body: 'Deploying now!' });
  await api.decide((await waitForPending(server, 'Deploying now!')).id, {
    kind: 'deny',
    reason: 'Not on a Friday',
  });
  await denied;

  // Left waiting on purpose: the queue the screenshots show. Nobody awaits them; the server stops first.
  const names = (await agent.client.listTools()).tools.map((t) => t.name);
  const gmailSend = names.find((n) => n.endsWith('gmail_send'));
  const createEvent = names.find((n) => n.endsWith('calendar_create_event'));
  const waiting: Promise<unknown>[] = [];
  if (gmailSend) {
    waiting.push(
      callTool(agent, gmailSend, {
        to: ['bob@example.com'],
        subject: 'Q3 numbers',
        body: 'Hi Bob,\n\nthe Q3 report is attached to the shared drive; revenue is up 12%.\n\nBest,\nAlice',
      }),
    );
    await waitForPending(server, 'Q3 numbers');
  }
  if (createEvent) {
    waiting.push(
      callTool(agent, createEvent, {
        summary: 'Design review',
        start: '2026-03-10T14:00:00+01:00',
        end: '2026-03-10T15:00:00+01:00',
        location: 'Room 4',
        attendees: ['bob@example.com', 'carol@example.com'],
      }),
    );
    await waitForPending(server, 'Design review');
  }
  waiting.push(callTool(agent, 'test_send', { to: 'carol@example.com', body: 'Lunch at 1?' }));
  await waitForPending(server, 'Lunch at 1?');
  for (const w of waiting) w.catch(() => {});

  return {
    profile,
    server,
    agent,
    google,
    upstream,
    stop: async () => {
      await agent.close();
      await server.stop();
      await upstream.stop();
      await google.stop();
      await calendar.stop();
    },
  };
}
