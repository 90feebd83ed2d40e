import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { closedPort } from '../../test-support/closed-port.js';
import { startRemoteApp } from '../../test-support/remote-app.js';

/**
 * Probe (docs/security.md, "No credentials of a server URL"): "settings.json (no secrets)" and "secrets never in files".
 * A credential in a server URL's query moves to the vault (url-secrets.ts, issue 29 item 5), but
 * many hosted MCP servers put the credential in the URL's path: Zapier's
 * `https://mcp.zapier.com/api/mcp/s/<secret>/mcp` ("treat it like a password"), Pipedream's and
 * Composio's per-user URLs. Such a URL is kept whole in settings.json and shown whole by
 * `remote list` / listRemotes — the same secret, one segment to the left.
 */
const cleanup = cleanupAfterEach();

describe('a credential in a server URL’s path', () => {
  it('is kept out of settings.json and out of listRemotes, as a query credential is', async () => {
    const secret = randomBytes(24).toString('base64url');
    const port = await closedPort();
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({
      name: 'zap',
      url: `http://127.0.0.1:${port}/api/mcp/s/${secret}/mcp`,
    });

    // The control: a query credential of the same server never reaches the file.
    const qsecret = randomBytes(24).toString('base64url');
    await t.app.control.addRemote({
      name: 'q',
      url: `http://127.0.0.1:${port}/mcp?api_key=${qsecret}`,
    });

    const settings = await readFile(join(t.dataDir, 'settings.json'), 'utf8');
    expect(settings).not.toContain(qsecret);
    expect(settings).not.toContain(secret);
    expect(JSON.stringify(await t.app.control.listRemotes())).not.toContain(secret);
  });
});
