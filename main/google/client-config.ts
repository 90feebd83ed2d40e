import { object, optional, safeParse, string } from '../platform/shape.js';

/** Vault key of the OAuth client secret (the ID is in settings). */
export const CLIENT_SECRET_KEY = 'google-client-secret';

export interface GoogleClientCredentials {
  clientId: string;
  clientSecret: string;
  projectId?: string;
}

export class ClientConfigError extends Error {
  override name = 'ClientConfigError';
}

const CLIENT_ID = /^[A-Za-z0-9._-]{1,200}\.apps\.googleusercontent\.com$/;

// The file Google Cloud Console downloads for a "Desktop app" client
// ("client_secret_<id>.json"): {"installed": {client_id, client_secret, project_id, …}}.
const installedSchema = object(
  {
    installed: object(
      { client_id: string(), client_secret: string(), project_id: optional(string()) },
      { unknown: 'strip' },
    ),
  },
  { unknown: 'strip' },
);

/** Parses the downloaded client file; refuses other client types with the reason. */
export function parseClientFile(text: string): GoogleClientCredentials {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ClientConfigError(
      'The file is not JSON. Download the client from Google Cloud Console → APIs & Services → Credentials → your Desktop client → "Download JSON".',
    );
  }
  if (raw && typeof raw === 'object' && 'web' in raw) {
    // Web clients accept only pre-registered redirect URIs; the loopback flow
    // needs any port on 127.0.0.1, which Google allows for Desktop clients only.
    throw new ClientConfigError(
      'This is a "Web application" OAuth client. Airlock needs a "Desktop app" client (docs/google.md, "Create the OAuth client").',
    );
  }
  const parsed = safeParse(installedSchema, raw);
  if (!parsed.ok) {
    throw new ClientConfigError(
      'This is not a Google OAuth client file: expected {"installed": {"client_id": …, "client_secret": …}} as downloaded for a "Desktop app" client.',
    );
  }
  const { client_id, client_secret, project_id } = parsed.value.installed;
  return validateClient({
    clientId: client_id,
    clientSecret: client_secret,
    ...(project_id ? { projectId: project_id } : {}),
  });
}

/** Validates an ID and secret entered by hand (or read from the file). */
export function validateClient(input: {
  clientId?: unknown;
  clientSecret?: unknown;
  projectId?: unknown;
}): GoogleClientCredentials {
  const clientId = typeof input.clientId === 'string' ? input.clientId.trim() : '';
  const clientSecret = typeof input.clientSecret === 'string' ? input.clientSecret.trim() : '';
  if (!CLIENT_ID.test(clientId)) {
    throw new ClientConfigError(
      'The client ID must look like "1234-abc.apps.googleusercontent.com" (Google Cloud Console → Credentials).',
    );
  }
  // Google's token endpoint still wants the secret from Desktop clients, PKCE or not.
  if (!clientSecret || clientSecret.length > 200 || /\s/.test(clientSecret)) {
    throw new ClientConfigError(
      'The client secret is missing or malformed (it usually starts with "GOCSPX-").',
    );
  }
  const projectId =
    typeof input.projectId === 'string' && input.projectId ? input.projectId : undefined;
  return { clientId, clientSecret, ...(projectId ? { projectId } : {}) };
}
