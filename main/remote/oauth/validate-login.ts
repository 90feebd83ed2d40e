import { isHttpsUrl } from '@modelcontextprotocol/client';
import type { RemoteLoginOptions } from '../../../common/contract/index.js';
import { ControlError } from '../../../common/contract/index.js';

const LINE = /^[\x21-\x7e]+$/;
/** RFC 6749 §3.3 scope tokens: printable ASCII without space, quote and backslash, separated by spaces. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** Checks loginRemote's options (issue 10); bad input is a clear ControlError('INVALID'). */
export function validateLoginOptions(raw: unknown): RemoteLoginOptions {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid();
  const o = raw as Record<string, unknown>;
  const out: RemoteLoginOptions = {};
  if (o.clientId !== undefined) {
    if (typeof o.clientId !== 'string' || !LINE.test(o.clientId.trim()) || o.clientId.length > 500)
      throw new ControlError(
        'INVALID',
        'clientId must be the client ID the authorization server gave you (one line, no spaces).',
      );
    out.clientId = o.clientId.trim();
  }
  if (o.clientSecret !== undefined) {
    if (
      typeof o.clientSecret !== 'string' ||
      o.clientSecret.trim() === '' ||
      /[\r\n\0]/.test(o.clientSecret.trim())
    )
      throw new ControlError('INVALID', 'clientSecret must be a non-empty single line.');
    if (!out.clientId) throw new ControlError('INVALID', 'A clientSecret needs its clientId.');
    out.clientSecret = o.clientSecret.trim();
  }
  if (o.clientMetadataUrl !== undefined) {
    // SEP-991: a Client ID Metadata Document URL is an https URL with a path.
    if (typeof o.clientMetadataUrl !== 'string' || !isHttpsUrl(o.clientMetadataUrl))
      throw new ControlError(
        'INVALID',
        'clientMetadataUrl must be an https:// URL with a path, where your client metadata document is published.',
      );
    out.clientMetadataUrl = o.clientMetadataUrl;
  }
  if (o.scope !== undefined) {
    if (typeof o.scope !== 'string' || !SCOPE.test(o.scope.trim()) || o.scope.length > 1000)
      throw new ControlError(
        'INVALID',
        'scope must be space-separated scope names, e.g. "read write".',
      );
    out.scope = o.scope.trim();
  }
  if (o.openBrowser !== undefined) {
    if (typeof o.openBrowser !== 'boolean')
      throw new ControlError('INVALID', 'openBrowser must be true or false.');
    out.openBrowser = o.openBrowser;
  }
  return out;
}

function invalid(): ControlError {
  return new ControlError(
    'INVALID',
    'loginRemote expects { clientId?, clientSecret?, clientMetadataUrl?, scope?, openBrowser? }.',
  );
}
