import { useId, useState, type FormEvent } from 'react';
import type { RemoteProbeResult, RemoteView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { HeaderRows, headersFrom, type HeaderRow } from './HeaderRows';
import { ProbeResult } from './ProbeResult';
import { LocalServerFields } from './LocalServerFields';
import { stdioFrom, type EnvRow } from './local-model';
import { SandboxFields } from './SandboxFields';
import { NEW_SANDBOX, sandboxFrom } from './sandbox-model';

/**
 * Add a server: a remote one (name, URL, optional bearer token and headers)
 * or a local one that Airlock starts (program, arguments, environment).
 * Secrets are write-only: they go to the core once and live in the OS
 * keychain. "Test connection" connects without saving and reports the tool
 * count or the exact error.
 */
export function AddServerForm({
  onAdded,
  onCancel,
}: {
  onAdded: (r: RemoteView) => void;
  onCancel?: () => void;
}) {
  const { api } = useControl();
  const id = useId();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  // The whole URL is the secret (a per-user URL; docs/security.md, "No credentials of a server URL", docs/remote.md).
  const [urlSecret, setUrlSecret] = useState(false);
  const [token, setToken] = useState('');
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [busy, setBusy] = useState<'test' | 'add' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [probe, setProbe] = useState<RemoteProbeResult | null>(null);
  const [kind, setKind] = useState<'url' | 'local'>('url');
  const [local, setLocal] = useState({ command: '', args: '', cwd: '', rows: [] as EnvRow[] });
  const [sandbox, setSandbox] = useState(NEW_SANDBOX);

  const input = () => {
    const h = headersFrom(rows);
    if (!h.ok) throw new Error(h.error);
    return {
      url: url.trim(),
      ...(Object.keys(h.headers).length ? { headers: h.headers } : {}),
      ...(token.trim() ? { bearerToken: token.trim() } : {}),
    };
  };

  const test = async () => {
    setError(null);
    setProbe(null);
    if (!url.trim()) return setError('Type the server’s URL first.');
    setBusy('test');
    try {
      setProbe(await api.testRemote(input()));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Give the server a short name, such as "linear".');
    const stdio =
      kind === 'local' ? stdioFrom(local.command, local.args, local.cwd, local.rows) : null;
    if (stdio && !stdio.ok) return setError(stdio.error);
    const perm = sandboxFrom(sandbox);
    if (!perm.ok) return setError(perm.error);
    if (!stdio && !url.trim())
      return setError('Type the server’s URL, such as https://mcp.example.com/mcp.');
    setBusy('add');
    try {
      const added = await api.addRemote(
        stdio?.ok
          ? {
              name: name.trim(),
              stdio: { ...stdio.stdio, ...(perm.sandbox ? { sandbox: perm.sandbox } : {}) },
            }
          : { name: name.trim(), ...input(), ...(urlSecret ? { urlSecret: true } : {}) },
      );
      setLocal((l) => ({ ...l, rows: [] }));
      setSandbox(NEW_SANDBOX);
      setToken('');
      setRows([]);
      onAdded(added);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <form
      className="card add-server"
      onSubmit={(e) => void submit(e)}
      aria-labelledby={`${id}-h`}
      data-testid="add-server-form"
      noValidate
    >
      <h2 id={`${id}-h`}>Add a server</h2>
      <div className="field" role="radiogroup" aria-label="Kind of server">
        <label className="inline">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={kind === 'url'}
            onChange={() => setKind('url')}
            data-testid="kind-url"
          />{' '}
          Remote
        </label>{' '}
        <label className="inline">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={kind === 'local'}
            onChange={() => setKind('local')}
            data-testid="kind-local"
          />{' '}
          Local command (Airlock starts it)
        </label>
      </div>
      <div className="grid-2">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="linear"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-name-h`}
            required
          />
          <span id={`${id}-name-h`} className="hint">
            Letters, digits, - and _. It prefixes the server’s tool names.
          </span>
        </div>
        {kind === 'url' && (
          <div className="field">
            <label htmlFor={`${id}-url`}>URL</label>
            <input
              id={`${id}-url`}
              type={urlSecret ? 'password' : 'url'}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://mcp.example.com/mcp"
              autoComplete="off"
              spellCheck={false}
              required
            />
            <label className="inline">
              <input
                type="checkbox"
                checked={urlSecret}
                onChange={(e) => setUrlSecret(e.target.checked)}
                data-testid="url-secret"
              />{' '}
              The whole URL is a secret (a per-user URL, such as Zapier’s): kept in your OS
              keychain, shown as https://host/***
            </label>
          </div>
        )}
      </div>
      {kind === 'local' ? (
        <>
          <LocalServerFields
            {...local}
            disabled={busy !== null}
            onChange={(patch) => setLocal((l) => ({ ...l, ...patch }))}
          />
          <SandboxFields value={sandbox} onChange={setSandbox} isNew disabled={busy !== null} />
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-token`}>Bearer token (optional)</label>
            <input
              id={`${id}-token`}
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-token-h`}
            />
            <span id={`${id}-token-h`} className="hint">
              Kept in your OS keychain. Airlock never shows it again.
            </span>
          </div>
          <HeaderRows rows={rows} onChange={setRows} disabled={busy !== null} />
        </>
      )}
      <div className="probe-area" aria-live="polite">
        {probe && <ProbeResult result={probe} />}
        {error && (
          <p className="error" role="alert" data-testid="add-server-error">
            {error}
          </p>
        )}
      </div>
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy !== null}
          data-testid="add-server-submit"
        >
          {busy === 'add' ? 'Adding…' : 'Add server'}
        </button>
        {kind === 'url' && (
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void test()}
            data-testid="test-server"
          >
            {busy === 'test' ? 'Testing…' : 'Test connection'}
          </button>
        )}
        {onCancel && (
          <button type="button" disabled={busy !== null} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
