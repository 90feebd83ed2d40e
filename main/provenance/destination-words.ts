/**
 * What an argument's name says about its value (issue 30): a destination
 * (where the call sends something), content (what it sends), or nothing.
 * Tools name fields as they like — `to`, `recipient_email`, `addAttendees`,
 * `webhook-url`, `notify.list[0].addr` — so names are split into words and
 * judged by their head word, as English compounds are: `email_body` is a body,
 * `recipient_email` an address, `share_with` a share.
 */

export type FieldRole = 'destination' | 'content' | 'neutral';

const wordList = (text: string) => text.split(/\s+/).filter(Boolean);

const DESTINATION = new Set(
  wordList(`
    to cc bcc recipient rcpt attendee guest invitee participant member email mail mailbox
    address addr webhook hook callback endpoint url uri iri link href host hostname domain
    server target destination dest dst forward fwd share sharee invite notify phone tel
    telephone mobile sms fax whatsapp mailto redirect upload assignee owner reviewer
    collaborator grantee viewer editor commenter subscriber audience contact people person user
    sink relay proxy origin remote peer
  `).flatMap(withPlural),
);

const CONTENT = new Set(
  wordList(`
    body text content message msg description desc note comment summary subject title html
    markdown md caption prompt query question answer snippet excerpt payload data raw log detail
    reason memo signature template instruction input code script search filter location venue
    place version ver revision release build filename
  `).flatMap(withPlural),
);

/** Words that say nothing about the role and are skipped at the end of a name. */
const TRAILING = new Set(
  wordList(`
    list lists array set csv value values field fields param params str string strings info with for of on in at by add new extra additional optional required
  `),
);

function withPlural(w: string): string[] {
  if (w.endsWith('s') || w.endsWith('x')) return [w, `${w}es`];
  if (w.endsWith('y') && !/[aeiou]y$/.test(w)) return [w, `${w.slice(0, -1)}ies`];
  return [w, `${w}s`];
}

/** `add_attendees` → [add, attendees]; `recipientEmail` → [recipient, email]; `URLs` → [urls]. */
export function wordsOfKey(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** `file`, `name` as one word, `filename`: the name of a file. */
function fileNameJoined(words: string[]): string[] {
  return words.flatMap((w, i, all) =>
    w === 'file' && all[i + 1] === 'name'
      ? ['filename']
      : w === 'name' && all[i - 1] === 'file'
        ? []
        : [w],
  );
}

/**
 * The value's own key names a file (`filename`, `file_name`, `attachmentFileName`). Its value is
 * content by its name, but a third party's tool may call where it writes a "filename": a value
 * with a scheme (`https://drop.example/in`) is still read by its shape (destinations.ts; review
 * of batch 7, where a stranger's link there was flagged before file names were content).
 */
export function isFileNameKey(path: readonly (string | number)[]): boolean {
  const last = path.findLast((k): k is string => typeof k === 'string');
  if (last === undefined) return false;
  const words = fileNameJoined(wordsOfKey(last));
  let end = words.length;
  while (end > 1 && TRAILING.has(words[end - 1]!)) end--;
  return words[end - 1] === 'filename' || words[end - 1] === 'filenames';
}

const cache = new Map<string, FieldRole>();

/** The role of one object key, by its head word; any destination word in a neutral name counts. */
export function roleOfKey(key: string): FieldRole {
  const hit = cache.get(key);
  if (hit) return hit;
  // A file's name (`filename`, `file_name`, `fileName`) names the file, not where it goes:
  // `staging.key` or `build.dev` is read as a host by its shape alone (outside corpus batch 7,
  // z-b-b64-attachment-asked: a key sent as a file a colleague asked for).
  const words = fileNameJoined(wordsOfKey(key));
  let end = words.length;
  while (end > 1 && TRAILING.has(words[end - 1]!)) end--;
  const head = words[end - 1];
  let role: FieldRole = 'neutral';
  if (head && DESTINATION.has(head)) role = 'destination';
  else if (head && CONTENT.has(head)) role = 'content';
  else if (words.some((w) => DESTINATION.has(w))) role = 'destination';
  if (cache.size < 10_000) cache.set(key, role);
  return role;
}

/**
 * The role of a value at `path`: its own key decides; a neutral key defers to the keys above
 * it (`attendees[0].email`, `recipients[2].value`).
 */
export function roleOfPath(path: readonly (string | number)[]): FieldRole {
  for (let i = path.length - 1; i >= 0; i--) {
    const k = path[i];
    if (typeof k !== 'string') continue;
    const role = roleOfKey(k);
    if (role !== 'neutral') return role;
  }
  return 'neutral';
}

const GENERIC_LINK = new Set(['url', 'urls', 'uri', 'uris', 'iri', 'link', 'links', 'href']);

/**
 * A link in a field named only "url" or "link" (no webhook, target, callback, destination
 * anywhere on its path): it may be where the call sends something, or just what it records.
 */
export function isGenericLink(path: readonly (string | number)[]): boolean {
  const keys = path.filter((k): k is string => typeof k === 'string');
  const last = keys.at(-1);
  if (!last) return false;
  const words = wordsOfKey(last);
  if (!words.some((w) => GENERIC_LINK.has(w))) return false;
  const others = [
    ...words.filter((w) => !GENERIC_LINK.has(w)),
    ...keys.slice(0, -1).flatMap(wordsOfKey),
  ];
  return !others.some((w) => DESTINATION.has(w));
}

// Tools that record or read what a link points at, rather than send to it (a reading list, a
// summariser). Only these make a generic link passive; an unknown verb counts as sending.
const PASSIVE_VERBS = new Set(
  wordList(`
    save bookmark store remember pin clip archive tag read open view preview summarize summarise analyze analyse scrape crawl browse visit check validate lookup resolve expand shorten later
  `),
);
const SENDING_VERBS = new Set(
  wordList(`
    send post deliver notify share invite forward upload push publish submit export transfer sync webhook hook subscribe register callback email mail message sms broadcast relay put request http call invoke trigger run exec execute write report
  `),
);

/** A tool whose name says it records or reads links, and says nothing of sending. */
export function isPassiveTool(name: string): boolean {
  const words = wordsOfKey(name.replace(/^.*__/, ''));
  return words.some((w) => PASSIVE_VERBS.has(w)) && !words.some((w) => SENDING_VERBS.has(w));
}
