import type { IncomingMessage, ServerResponse } from 'node:http';

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** OAuth error answer (RFC 6749 §5.2), as Google sends it: `{"error":"invalid_grant","error_description":"Bad Request"}`. */
export function oauthError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
): void {
  json(res, status, { error, error_description: description });
}

/** Google API error (AIP-193): `{"error":{"code","message","status","errors":[{reason,domain,message}]}}`. */
export function apiError(
  res: ServerResponse,
  status: number,
  statusText: string,
  message: string,
  reason: string,
  headers: Record<string, string> = {},
): void {
  json(
    res,
    status,
    {
      error: {
        code: status,
        message,
        status: statusText,
        errors: [{ message, domain: 'global', reason }],
      },
    },
    headers,
  );
}

/** `bodyHtml` is trusted markup from the fake itself; title and message are escaped. */
export function html(
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  bodyHtml = '',
): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1><p>${esc(message)}</p>${bodyHtml}</body></html>`,
  );
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export function bearer(req: IncomingMessage): string | undefined {
  return /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
}
