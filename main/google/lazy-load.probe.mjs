// Child process for lazy-load.test.ts: which npm packages does the built app
// load at start, and which after Google tools are used? Prints one JSON line.
//
// How packages are seen: a module.registerHooks() resolve hook (Node ≥ 22.15,
// in-thread and synchronous) records every URL the loader resolves, for
// `import` and `require` alike. require.cache would miss the ESM-only
// packages (unpdf, open, postal-mime, luxon), and process.moduleLoadList
// lists only Node's own built-ins.
import { registerHooks } from 'node:module';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL(process.argv[2] ?? '../../dist/', import.meta.url);
const packages = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    // The last node_modules segment names the package (nested copies included).
    const m = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
    if (m) packages.add(m[1]);
    return resolved;
  },
});
const loaded = () => [...packages].sort();
const load = (path) => import(new URL(path, dist).href);

// Start: what `airlock serve` loads (the CLI's module graph, then a started App).
await load('main/cli.js');
const { App } = await load('main/app/app.js');
const { MemoryVault } = await load('main/platform/vault/vault.js');
const { Logger } = await load('main/platform/log.js');
const dataDir = mkdtempSync(join(tmpdir(), 'airlock-lazy-'));
const app = new App({
  dataDir,
  port: 0,
  vault: new MemoryVault(),
  skipLock: true,
  logger: new Logger({ stderr: false }),
});
await app.start();
await app.registry.whenReady();
const atStart = loaded();

// Use: Gmail, Calendar, OAuth and attachments, against a minimal fake of Google's API.
const b64 = (s) => Buffer.from(s).toString('base64url');
const api = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const send = (body) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (path.endsWith('/labels'))
    return send({ labels: [{ id: 'INBOX', name: 'INBOX', type: 'system' }] });
  if (path.endsWith('/messages/send')) return send({ id: 'sent-1', threadId: 'thread-1' });
  if (path.includes('/messages/'))
    return send({
      id: 'm1',
      threadId: 't1',
      labelIds: ['INBOX'],
      internalDate: '1767225600000',
      payload: {
        mimeType: 'text/html',
        headers: [
          { name: 'Subject', value: 'Hello' },
          { name: 'From', value: 'Bob <bob@example.com>' },
          { name: 'Content-Type', value: 'text/html; charset=iso-8859-1' },
        ],
        body: { data: b64('<p>Hello <b>world</b></p>'), size: 25 },
      },
    });
  if (path.endsWith('/calendarList'))
    return send({
      items: [
        { id: 'primary', summary: 'Alice', timeZone: 'UTC', primary: true, accessRole: 'owner' },
      ],
    });
  if (path.includes('/calendars/')) return send({ id: 'primary', timeZone: 'UTC' });
  res
    .writeHead(404, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: { code: 404, message: `no fake for ${path}` } }));
});
await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
const root = `http://127.0.0.1:${api.address().port}/`;
const access = {
  accounts: () => [{ email: 'alice@example.com', readOnly: false, scopes: [], state: 'connected' }],
  accessToken: async () => 'fake-access-token',
  apiRoot: () => root,
  onChange: () => () => {},
};
const ctx = { signal: AbortSignal.timeout(20_000) };
const text = (r) => ({
  isError: r.isError === true,
  text: r.content.map((c) => c.text ?? '').join('\n'),
});

const { createGmailSource } = await load('main/google/gmail/index.js');
const gmail = createGmailSource(access);
const read = text(await gmail.call('gmail_read', { message_id: 'm1' }, ctx));
const sent = text(
  await gmail.call('gmail_send', { to: ['bob@example.com'], subject: 'Hi', body: 'Hello' }, ctx),
);
const { createCalendarSource } = await load('main/google/calendar/calendar-source.js');
const calendars = text(await createCalendarSource(access).call('calendar_list_calendars', {}, ctx));
const { GoogleOAuth } = await load('main/google/oauth/google-oauth.js');
const oauth = new GoogleOAuth({
  client: { clientId: 'client-id', clientSecret: 'client-secret' },
  endpoints: {
    authUrl: `${root}auth`,
    tokenUrl: `${root}token`,
    revokeUrl: `${root}revoke`,
    userinfoUrl: `${root}userinfo`,
    apiRoot: root,
  },
});
const authUrl = await oauth.authUrl({
  redirectUri: 'http://127.0.0.1:1/cb',
  state: 's',
  challenge: (await oauth.pkce()).challenge,
  scopes: ['openid'],
});
const { extractAttachment } = await load('main/google/content/extract.js');
// Not real documents: the point is that the readers load on demand and a bad file is a readable failure.
const pdf = await extractAttachment(new Uint8Array([37, 80, 68, 70, 45, 0]), {
  mimeType: 'application/pdf',
  filename: 'a.pdf',
});
const docx = await extractAttachment(new Uint8Array([1, 2, 3]), {
  mimeType: 'application/octet-stream',
  filename: 'a.docx',
});

console.log(
  JSON.stringify({ atStart, afterUse: loaded(), read, sent, calendars, authUrl, pdf, docx }),
);
await new Promise((resolve) => api.close(resolve));
await app.stop();
rmSync(dataDir, { recursive: true, force: true });
