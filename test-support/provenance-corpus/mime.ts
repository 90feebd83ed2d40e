import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';

/**
 * Real RFC 822 for the corpus (issue 30): built with nodemailer's
 * MailComposer — the composer Airlock itself sends with — so messages have
 * what received mail has: multipart/alternative with an HTML part, HTML-only
 * bodies, attachments, Reply-To, threads (In-Reply-To / References),
 * calendar invitations (text/calendar, method REQUEST) and Gmail's
 * Authentication-Results. A few From forms no composer writes (no address, a
 * raw Unicode domain) are set on the composed bytes.
 */

export interface MailSpec {
  from: string;
  /** A From header written verbatim over the composed one (forms a composer will not write). */
  rawFrom?: string;
  to: string;
  cc?: string;
  replyTo?: string;
  subject: string;
  date: Date;
  text?: string;
  html?: string;
  attachments?: { filename: string; content: string | Buffer; contentType: string }[];
  /** An iCalendar invitation (text/calendar; method=REQUEST) as an alternative part. */
  ical?: string;
  /** What Gmail's receiving server stamped: SPF/DKIM/DMARC all pass, or a forgery's failures. */
  auth?: 'pass' | 'fail';
  messageId: string;
  /** How the text parts travel (nodemailer picks one when unset). */
  textEncoding?: 'base64' | 'quoted-printable';
  inReplyTo?: string;
  references?: string[];
}

const AUTH = {
  pass: (domain: string) =>
    `mx.google.com; dkim=pass header.i=@${domain} header.s=s1 header.b=abc123; spf=pass (google.com: domain of bounce@${domain} designates 192.0.2.7 as permitted sender) smtp.mailfrom=${domain}; dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=${domain}`,
  fail: (domain: string) =>
    `mx.google.com; dkim=fail header.i=@${domain}; spf=fail (google.com: domain of ${domain} does not designate 203.0.113.9 as permitted sender) smtp.mailfrom=${domain}; dmarc=fail (p=NONE sp=NONE dis=NONE) header.from=${domain}`,
};

export async function buildMail(m: MailSpec): Promise<Buffer> {
  const domain = /@([^>\s]+)/.exec(m.from)?.[1] ?? 'unknown.invalid';
  const opts: Mail.Options = {
    from: m.from,
    to: m.to,
    ...(m.cc ? { cc: m.cc } : {}),
    ...(m.replyTo ? { replyTo: m.replyTo } : {}),
    subject: m.subject,
    date: m.date,
    messageId: m.messageId,
    ...(m.text !== undefined ? { text: m.text } : {}),
    ...(m.html !== undefined ? { html: m.html } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
    ...(m.ical ? { icalEvent: { method: 'REQUEST', content: m.ical } } : {}),
    ...(m.textEncoding ? { textEncoding: m.textEncoding } : {}),
    ...(m.inReplyTo ? { inReplyTo: m.inReplyTo } : {}),
    ...(m.references ? { references: m.references } : {}),
    ...(m.auth ? { headers: { 'Authentication-Results': AUTH[m.auth](domain) } } : {}),
  };
  let raw = await new MailComposer(opts).compile().build();
  if (m.rawFrom !== undefined) {
    const s = raw.toString('utf8').replace(/^From: .*(?:\r\n[ \t].*)*/m, `From: ${m.rawFrom}`);
    raw = Buffer.from(s, 'utf8');
  }
  return raw;
}

/** The text Gmail puts around a forwarded message. */
export function gmailForward(o: {
  from: string;
  date: string;
  subject: string;
  to: string;
  body: string;
}): string {
  return [
    '---------- Forwarded message ---------',
    `From: ${o.from}`,
    `Date: ${o.date}`,
    `Subject: ${o.subject}`,
    `To: ${o.to}`,
    '',
    o.body,
  ].join('\n');
}

/** A reply's quoted history as Gmail writes it. */
export function gmailQuote(o: {
  name: string;
  address: string;
  date: string;
  body: string;
}): string {
  return [
    `On ${o.date} ${o.name} <${o.address}> wrote:`,
    ...o.body.split('\n').map((l) => `> ${l}`),
  ].join('\n');
}

/** A minimal iCalendar invitation (RFC 5545) whose DESCRIPTION carries the organiser's text. */
export function invitation(o: {
  uid: string;
  organizer: string;
  attendee: string;
  summary: string;
  description: string;
  start: string;
}): string {
  const fold = (line: string) => line.replace(/(.{74})/g, '$1\r\n ');
  return [
    'BEGIN:VCALENDAR',
    'PRODID:-//Corpus//EN',
    'VERSION:2.0',
    'METHOD:REQUEST',
    'BEGIN:VEVENT',
    `UID:${o.uid}`,
    `DTSTART:${o.start}`,
    `DTEND:${o.start.replace(/T(\d\d)/, (_, h: string) => `T${String(Number(h) + 1).padStart(2, '0')}`)}`,
    `SUMMARY:${o.summary}`,
    fold(`DESCRIPTION:${o.description.replace(/\n/g, '\\n').replace(/,/g, '\\,')}`),
    `ORGANIZER;CN=Organizer:mailto:${o.organizer}`,
    `ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=TRUE:mailto:${o.attendee}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');
}

/** A plain text as simple HTML (paragraphs; addresses and links as the sender's client links them). */
export function toHtml(text: string, opts: { mailto?: boolean } = {}): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html><html><body style="font-family:Arial">${text
    .split(/\n{2,}/)
    .map((p) => {
      let h = esc(p).replace(/\n/g, '<br>');
      h = h.replace(/\bhttps?:\/\/[^\s<]+[^\s<.,;]/g, (u) => `<a href="${u}">${u}</a>`);
      if (opts.mailto)
        h = h.replace(/[\w.+-]+@[\w.-]+\.[a-z]{2,}/gi, (a) => `<a href="mailto:${a}">${a}</a>`);
      return `<p>${h}</p>`;
    })
    .join('\n')}</body></html>`;
}
