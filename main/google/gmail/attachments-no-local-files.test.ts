import fs from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { tempDir } from '../../../test-support/harness.js';
import { buildMime, type Outgoing } from './compose.js';

/**
 * Security (issue 33 item 2): outgoing attachments are never read from local files or links.
 * nodemailer reads an attachment's `path` (a file, or a URL) and `href` itself, so a `path` or
 * `href` smuggled into any field must be refused, and no file opened. nodemailer is CommonJS and
 * opens files through the `fs` module object, which is spied on here.
 */

let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  t = undefined;
});

const SECRET = 'AIRLOCK-LOCAL-SECRET-7d1f';

function secretFile(): string {
  const file = join(tempDir('airlock-attach-'), 'secret.txt');
  writeFileSync(file, `${SECRET}\n`);
  return file;
}

/** Every way of opening a file nodemailer (or anything else) could use, recorded. */
function watchFiles(file: string): () => string[] {
  const touched: string[] = [];
  const record = (p: unknown) => {
    const s = p instanceof URL ? p.pathname : String(p);
    if (s.includes('secret.txt') || s.includes(file)) touched.push(s);
  };
  for (const name of [
    'createReadStream',
    'readFile',
    'readFileSync',
    'open',
    'openSync',
  ] as const) {
    const original = fs[name] as (...a: unknown[]) => unknown;
    vi.spyOn(fs, name).mockImplementation(((...a: unknown[]) => {
      record(a[0]);
      return original.apply(fs, a);
    }) as never);
  }
  const promised = fs.promises.readFile.bind(fs.promises);
  vi.spyOn(fs.promises, 'readFile').mockImplementation(((p: unknown, ...rest: unknown[]) => {
    record(p);
    return (promised as (...a: unknown[]) => unknown)(p, ...rest);
  }) as never);
  return () => touched;
}

describe('no local file is ever read for an attachment', () => {
  it('refuses path, href, file:// and raw in any attachment field, and opens no file', async () => {
    t = await gmailTestbed();
    const file = secretFile();
    const touched = watchFiles(file);
    const url = pathToFileURL(file).href;
    const smuggled: unknown[] = [
      { path: file },
      { path: url },
      { href: url },
      { filename: 'a.txt', path: file },
      { filename: 'a.txt', mime_type: 'text/plain', content_base64: 'aGk=', path: file },
      { filename: 'a.txt', mime_type: 'text/plain', content_base64: 'aGk=', href: url },
      { message_id: t.ids.attachments.id, filename: 'totals.csv', path: file },
      { message_id: t.ids.attachments.id, filename: 'totals.csv', href: url },
      { filename: 'a.txt', mime_type: 'text/plain', content_base64: { path: file } },
      { filename: 'a.txt', mime_type: 'text/plain', content_base64: url },
      { filename: file, mime_type: 'text/plain', content_base64: 'aGk=' },
      { filename: url, mime_type: 'text/plain', content_base64: 'aGk=' },
      { filename: 'a.txt', mime_type: 'text/plain', content_base64: 'aGk=', raw: { path: file } },
      {
        filename: 'a.txt',
        mime_type: 'text/plain',
        content_base64: 'aGk=',
        content: { path: file },
      },
      { message_id: { path: file }, filename: 'x' },
      { message_id: t.ids.attachments.id, filename: { path: file } },
    ];
    for (const tool of ['gmail_send', 'gmail_create_draft']) {
      for (const attachment of smuggled) {
        const args = {
          to: ['bob@example.com'],
          subject: 's',
          body: 'b',
          attachments: [attachment],
        };
        expect(t.source.validateArgs(tool, args), JSON.stringify(attachment)).not.toBeNull();
        const r = await t.call(tool, args);
        expect(r.isError, JSON.stringify(attachment)).toBe(true);
      }
      // The list itself, and the text fields, as objects nodemailer would read.
      for (const args of [
        { to: ['bob@example.com'], subject: 's', body: 'b', attachments: { path: file } },
        { to: ['bob@example.com'], subject: 's', body: { path: file } },
        { to: ['bob@example.com'], subject: 's', body: 'b', html: { path: file } },
        { to: ['bob@example.com'], subject: 's', body: 'b', text: { path: file } },
        { to: ['bob@example.com'], subject: { path: file }, body: 'b' },
      ])
        await t.call(tool, args);
    }
    expect(touched()).toEqual([]);
    const out = [...t.fake.sent.map((s) => s.raw.toString('latin1'))];
    for (const d of t.fake.draftStore.log) out.push(JSON.stringify(d));
    for (const raw of out) expect(raw).not.toContain(SECRET);
    // Nor is the secret in base64 (what an attachment's body would carry).
    for (const raw of out)
      expect(raw).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 16));
  });

  it('the composer is given buffers only: a path or href on an attachment object is never followed', async () => {
    const file = secretFile();
    const touched = watchFiles(file);
    const m: Outgoing = {
      from: 'alice@example.com',
      to: [{ name: '', address: 'bob@example.com' }],
      cc: [],
      bcc: [],
      subject: 's',
      body: 'b',
      attachments: [
        // As if a later change passed the agent's object through: the extra keys are dropped.
        {
          filename: 'a.txt',
          mimeType: 'text/plain',
          content: Buffer.from('hi'),
          path: file,
          href: pathToFileURL(file).href,
        } as never,
      ],
    };
    const raw = (await buildMime(m)).toString('latin1');
    expect(raw).toContain(Buffer.from('hi').toString('base64'));
    expect(raw).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 16));
    expect(touched()).toEqual([]);

    // The control: the watch does see nodemailer open a file when it is given a path itself.
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer/index.js');
    const leaked = await new MailComposer({
      from: 'a@example.com',
      to: 'b@example.com',
      text: 'x',
      attachments: [{ filename: 'a.txt', path: file }],
    })
      .compile()
      .build();
    expect(leaked.toString('latin1')).toContain(Buffer.from(`${SECRET}\n`).toString('base64'));
    expect(touched().length).toBeGreaterThan(0);
  });
});
