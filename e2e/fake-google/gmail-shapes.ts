import { headerValue, parseParams, walk, type FakePart } from './gmail-mime.js';

/** The fake Gmail's data shapes: stored messages, Google's error bodies, labels and search. */

export interface StoredMessage {
  id: string;
  threadId: string;
  account: string;
  labelIds: string[];
  internalDate: number;
  raw: Buffer;
  root: FakePart;
  text: string;
}

export const SYSTEM_LABELS = [
  'INBOX',
  'SENT',
  'DRAFT',
  'SPAM',
  'TRASH',
  'UNREAD',
  'STARRED',
  'IMPORTANT',
  'CATEGORY_PERSONAL',
  'CATEGORY_SOCIAL',
  'CATEGORY_PROMOTIONS',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
  'CHAT',
];

const ERRORS: Record<number, { message: string; reason: string; status: string; domain?: string }> =
  {
    400: { message: 'Invalid id value', reason: 'invalidArgument', status: 'INVALID_ARGUMENT' },
    401: {
      message:
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      reason: 'authError',
      status: 'UNAUTHENTICATED',
    },
    403: {
      message: 'Request had insufficient authentication scopes.',
      reason: 'insufficientPermissions',
      status: 'PERMISSION_DENIED',
    },
    404: { message: 'Requested entity was not found.', reason: 'notFound', status: 'NOT_FOUND' },
    // labels.create/patch with a name in use (AIP-193: ALREADY_EXISTS).
    409: {
      message: 'Label name exists or conflicts',
      reason: 'duplicate',
      status: 'ALREADY_EXISTS',
    },
    429: {
      message: 'Too many concurrent requests for user.',
      reason: 'rateLimitExceeded',
      status: 'RESOURCE_EXHAUSTED',
      domain: 'usageLimits',
    },
    500: { message: 'Internal error encountered.', reason: 'backendError', status: 'INTERNAL' },
    503: {
      message: 'The service is currently unavailable.',
      reason: 'backendError',
      status: 'UNAVAILABLE',
    },
  };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly reason?: string,
  ) {
    super(message ?? ERRORS[status]?.message ?? 'error');
  }
}

function decodeCharset(bytes: Buffer, contentType: string): string {
  const charset = parseParams(contentType).params.charset ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

export function plainText(root: FakePart): string {
  for (const p of walk(root))
    if (p.mimeType === 'text/plain' && !p.filename)
      return decodeCharset(p.bytes, headerValue(p.headers, 'content-type'));
  for (const p of walk(root)) {
    if (p.mimeType === 'text/html' && !p.filename) {
      return decodeCharset(p.bytes, headerValue(p.headers, 'content-type'))
        .replace(/<(style|script|head)[\s\S]*?<\/\1>/gi, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&(nbsp|zwnj|#847);/g, ' ')
        .replace(/&ndash;/g, '–')
        .replace(/&euro;/g, '€')
        .replace(/&middot;/g, '·')
        .replace(/&amp;/g, '&');
    }
  }
  return '';
}

/** Google's error body for a failure (cloud.google.com/apis/design/errors#http_mapping). */
export function errorBody(err: unknown): {
  status: number;
  body: { error: Record<string, unknown> };
} {
  const status = err instanceof HttpError ? err.status : 500;
  const known = ERRORS[status] ?? ERRORS[500]!;
  const message = err instanceof Error && err.message ? err.message : known.message;
  const reason = (err instanceof HttpError && err.reason) || known.reason;
  const error: Record<string, unknown> = {
    code: status,
    message,
    errors: [{ message, domain: known.domain ?? 'global', reason }],
    status: known.status,
  };
  if (status === 403 && reason === 'insufficientPermissions') {
    error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        domain: 'googleapis.com',
        metadata: {
          service: 'gmail.googleapis.com',
          method: 'caribou.api.proto.MailboxService.',
        },
      },
    ];
  }
  return { status, body: { error } };
}

/** A small subset of Gmail's search operators, enough for tests. */
export function matches(
  m: StoredMessage,
  query: string,
  labels: Record<string, unknown>[],
): boolean {
  const terms = query.match(/(?:[^\s"]+:)?"[^"]*"|\S+/g) ?? [];
  const h = (name: string) => headerValue(m.root.headers, name).toLowerCase();
  return terms.every((raw) => {
    const t = raw.toLowerCase().replace(/"/g, '');
    const [op, ...v] = t.includes(':') ? t.split(':') : ['', t];
    const val = v.join(':');
    switch (op) {
      case 'from':
        return h('from').includes(val);
      case 'to':
        return h('to').includes(val) || h('cc').includes(val);
      case 'subject':
        return h('subject').includes(val);
      case 'in':
      case 'label': {
        const id = labels.find(
          (l) => String(l.name).toLowerCase() === val || String(l.id).toLowerCase() === val,
        )?.id as string | undefined;
        return val === 'anywhere' || (!!id && m.labelIds.includes(id));
      }
      case 'is':
        return val === 'unread'
          ? m.labelIds.includes('UNREAD')
          : val === 'starred'
            ? m.labelIds.includes('STARRED')
            : true;
      case 'has':
        return val === 'attachment' ? [...walk(m.root)].some((p) => p.filename) : true;
      case 'filename':
        return [...walk(m.root)].some((p) => p.filename.toLowerCase().includes(val));
      case '':
        return `${h('subject')} ${h('from')} ${h('to')} ${m.text.toLowerCase()}`.includes(val);
      default:
        return true; // newer_than:, after:, … are accepted and not applied.
    }
  });
}

function payload(
  part: FakePart,
  attachmentId: (part: FakePart) => string,
  format: string,
  metadataHeaders: string[],
): Record<string, unknown> {
  const headers = metadataHeaders.length
    ? part.headers.filter((h) => metadataHeaders.includes(h.name.toLowerCase()))
    : part.headers;
  if (format === 'metadata')
    return {
      partId: part.partId,
      mimeType: part.mimeType,
      filename: part.filename,
      headers,
      body: { size: 0 },
    };
  let bodyOut: Record<string, unknown> = { size: 0 };
  if (!part.mimeType.startsWith('multipart/')) {
    if (part.filename) {
      bodyOut = { attachmentId: attachmentId(part), size: part.bytes.length };
    } else {
      bodyOut = { size: part.bytes.length, data: part.bytes.toString('base64url') };
    }
  }
  return {
    partId: part.partId,
    mimeType: part.mimeType,
    filename: part.filename,
    headers,
    body: bodyOut,
    ...(part.parts.length
      ? { parts: part.parts.map((p) => payload(p, attachmentId, format, [])) }
      : {}),
  };
}

/** A message resource in the requested format (users.messages#Message). */
export function renderMessage(
  msg: StoredMessage,
  q: URLSearchParams,
  attachmentId: (part: FakePart) => string,
): Record<string, unknown> {
  const format = q.get('format') ?? 'full';
  const snippet = msg.text
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .replace(/&/g, '&amp;')
    .replace(/'/g, '&#39;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
  const base = {
    id: msg.id,
    threadId: msg.threadId,
    labelIds: msg.labelIds,
    snippet,
    sizeEstimate: msg.raw.length,
    historyId: '4242',
    internalDate: String(msg.internalDate),
  };
  if (format === 'minimal') return base;
  if (format === 'raw') return { ...base, raw: msg.raw.toString('base64url') };
  const metadataHeaders = q
    .getAll('metadataHeaders')
    .flatMap((h) => h.split(','))
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return {
    ...base,
    payload: payload(
      msg.root,
      attachmentId,
      format === 'metadata' ? 'metadata' : 'full',
      format === 'metadata' ? metadataHeaders : [],
    ),
  };
}
