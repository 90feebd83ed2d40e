import { useId, useState } from 'react';
import type { RemoteView } from '../../../../common/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { plural, relativeTime } from '../../lib/format';
import { needsSignIn } from './auth-model';
import { EditServerForm } from './EditServerForm';
import { EditLocalForm } from './EditLocalForm';
import { ServerAuth } from './ServerAuth';
import { commandLine, processText } from './local-model';
import { SandboxSummary } from './SandboxSummary';

const STATE_TEXT: Record<RemoteView['state'], string> = {
  ready: 'Connected',
  loading: 'Connecting…',
  error: 'Not working',
  disabled: 'Disabled',
};

/** One remote server: its status, its OAuth sign-in if it uses one, and enable/disable, refresh, edit, remove. */
export function ServerCard({
  server,
  onChanged,
  onRemoved,
}: {
  server: RemoteView;
  onChanged: (r: RemoteView) => void;
  onRemoved: (name: string) => void;
}) {
  const { api } = useControl();
  const id = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const run = async (what: string, fn: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    setNote(null);
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const toggle = () =>
    run('toggle', async () =>
      onChanged(await api.updateRemote(server.name, { enabled: !server.enabled })),
    );
  const toggleRelay = () =>
    run('relay', async () =>
      onChanged(await api.updateRemote(server.name, { relay: !server.relay })),
    );
  const refresh = () =>
    run('refresh', async () => {
      const [fresh] = await api.refreshRemote(server.name);
      if (!fresh) return;
      onChanged(fresh);
      setNote(
        fresh.state === 'ready'
          ? `Reconnected: ${plural(fresh.toolCount, 'tool')}.`
          : fresh.state === 'error'
            ? `Still not working: ${fresh.detail ?? 'no reason given'}`
            : STATE_TEXT[fresh.state],
      );
    });
  const signIn = needsSignIn(server);
  const remove = () =>
    run('remove', async () => {
      await api.removeRemote(server.name);
      setConfirming(false);
      onRemoved(server.name);
    });

  return (
    <article
      className="card server"
      aria-labelledby={`${id}-h`}
      data-testid="server-card"
      data-name={server.name}
      data-state={server.state}
    >
      <header className="card-head">
        <h3 id={`${id}-h`}>{server.name}</h3>
        <span className={`badge state ${server.state}`} data-testid="server-state">
          {server.state === 'error' && signIn ? 'Sign-in required' : STATE_TEXT[server.state]}
          {server.state === 'ready' && ` · ${plural(server.toolCount, 'tool')}`}
        </span>
      </header>
      <p className="mono url" data-testid="server-where">
        {server.stdio ? commandLine(server.stdio) : server.url}
      </p>
      {server.state === 'ready' && server.warning && (
        <p className="hint" data-testid="server-warning">
          {server.warning}
        </p>
      )}
      {server.state === 'error' && server.detail && !signIn && (
        <p className="error" data-testid="server-detail">
          {server.detail}
        </p>
      )}
      {server.stdio ? (
        <p className="hint" data-testid="server-process">
          Local{server.process && ` · ${processText(server)}`}
          {server.stdio.secretEnvNames.length > 0 &&
            ` · secret variables: ${server.stdio.secretEnvNames.join(', ')}`}
          {server.stdio.passedEnv &&
            ` · from Airlock’s environment: ${Object.keys(server.stdio.passedEnv).join(', ')}`}
          {server.origin && ` · imported from ${server.origin}`}
          {` · added ${relativeTime(server.createdAt)}`}
        </p>
      ) : (
        <p className="hint">
          {server.hasToken ? 'Bearer token set' : server.auth ? 'OAuth' : 'No token'}
          {server.headerNames.length > 0 && ` · headers: ${server.headerNames.join(', ')}`}
          {server.transport && ` · ${server.transport === 'sse' ? 'SSE' : 'streamable HTTP'}`}
          {server.protocolVersion && ` · MCP ${server.protocolVersion}`}
          {` · added ${relativeTime(server.createdAt)}`}
        </p>
      )}
      {server.stdio && <SandboxSummary sandbox={server.stdio.sandbox} />}
      {server.auth && (
        <ServerAuth
          server={server}
          auth={server.auth}
          disabled={busy !== null}
          onChanged={onChanged}
        />
      )}
      {editing && server.stdio ? (
        <EditLocalForm
          server={{ ...server, stdio: server.stdio }}
          onSaved={(r) => {
            setEditing(false);
            onChanged(r);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : editing ? (
        <EditServerForm
          server={server}
          onSaved={(r) => {
            setEditing(false);
            onChanged(r);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="actions">
          <label className="switch inline">
            <button
              type="button"
              role="switch"
              aria-checked={server.enabled}
              disabled={busy !== null}
              onClick={() => void toggle()}
              data-testid="server-enabled"
              aria-label={`${server.name} enabled`}
            >
              <span className="track" aria-hidden="true" />
            </button>
            <span aria-hidden="true">Enabled</span>
          </label>
          <label
            className="switch inline"
            title="Its sampling, elicitation and roots requests reach your agents' apps, labelled with its name. Off: Airlock refuses them."
          >
            <button
              type="button"
              role="switch"
              aria-checked={server.relay}
              disabled={busy !== null}
              onClick={() => void toggleRelay()}
              data-testid="server-relay"
              aria-label={`Relay ${server.name}'s requests (sampling, elicitation, roots) to agents`}
            >
              <span className="track" aria-hidden="true" />
            </button>
            <span aria-hidden="true">Relay its requests</span>
          </label>
          <button
            type="button"
            disabled={busy !== null || !server.enabled}
            onClick={() => void refresh()}
            data-testid="server-refresh"
          >
            {busy === 'refresh' ? 'Reconnecting…' : 'Reconnect & test'}
          </button>
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => setEditing(true)}
            data-testid="server-edit"
          >
            Edit
          </button>
          <button
            type="button"
            className="danger-outline"
            disabled={busy !== null}
            onClick={() => setConfirming(true)}
            data-testid="server-remove"
          >
            Remove
          </button>
        </div>
      )}
      <div aria-live="polite">
        {note && (
          <p className="notice-inline" data-testid="server-note">
            {note}
          </p>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Remove ${server.name}?`}
        confirmLabel="Remove server"
        danger
        busy={busy === 'remove'}
        error={confirming ? error : null}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Agents lose its {plural(server.toolCount, 'tool')} at once, and its{' '}
          {server.stdio ? 'process is ended and its secret variables are' : 'token and headers are'}{' '}
          deleted from the keychain.
        </p>
        <p className="hint">
          Your per-tool choices are kept in case you add it again under the same name.
        </p>
      </ConfirmDialog>
    </article>
  );
}
