import { useId, useState } from 'react';
import type { ClientView, ConnectResult, ImportResult } from '../../../../common/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';

/**
 * The MCP apps on this computer (issue 15): "Connect Cursor" writes Airlock
 * into Cursor's own config (a backup first; a second time changes nothing),
 * optionally taking out the servers imported from it; "Import" brings their
 * servers into Airlock. Each step shows a dry run first and asks.
 */
export function ClientsPanel() {
  const { api } = useControl();
  const id = useId();
  const clients = useLoad(
    () => api.listClients(),
    (e) => e.type === 'state.changed',
  );
  const [connecting, setConnecting] = useState<{ client: ClientView; plan: ConnectResult } | null>(
    null,
  );
  const [removeImported, setRemoveImported] = useState(false);
  const [importing, setImporting] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const run = async (what: string, fn: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const preview = (client: ClientView, remove = removeImported) =>
    run(`plan:${client.id}`, async () => {
      const plan = await api.connectClient(client.id, { dryRun: true, removeImported: remove });
      setConnecting({ client, plan });
    });
  const connect = () =>
    run('connect', async () => {
      if (!connecting) return;
      const r = await api.connectClient(connecting.client.id, { removeImported });
      const changed = r.files.filter((f) => f.changed);
      setDone(
        changed.length === 0
          ? `${connecting.client.label} was already connected; nothing changed.`
          : `${connecting.client.label} connected as agent “${r.agent}”. ${r.note}` +
              changed
                .map((f) => (f.backup ? ` A backup of ${f.path} is at ${f.backup}.` : ''))
                .join(''),
      );
      setConnecting(null);
      clients.reload();
    });
  const planImport = () =>
    run('plan-import', async () => setImporting(await api.importClients({ dryRun: true })));
  const doImport = () =>
    run('import', async () => {
      const r = await api.importClients({});
      const failed = Object.entries(r.failed);
      setDone(
        `Imported ${r.added.length} server${r.added.length === 1 ? '' : 's'}.` +
          (failed.length
            ? ` Not working yet: ${failed.map(([n, why]) => `${n} (${why})`).join('; ')}.`
            : ''),
      );
      setImporting(null);
    });

  const list = clients.data ?? [];
  const toAdd = importing?.items.filter((i) => i.action === 'add') ?? [];
  return (
    <section className="card clients" aria-labelledby={`${id}-h`} data-testid="clients-panel">
      <h2 id={`${id}-h`}>Your MCP apps</h2>
      <p className="hint">
        Airlock can set itself up in these apps, and bring over the servers they already use.
      </p>
      {clients.error && (
        <p className="error" role="alert">
          Could not read the apps’ settings: {clients.error}
        </p>
      )}
      {list.length > 0 && (
        <ul className="client-list">
          {list.map((c) => (
            <li key={c.id} data-testid="client-row" data-client={c.id}>
              <strong>{c.label}</strong>{' '}
              <span
                className={`badge state ${c.connected ? 'ready' : c.stale ? 'error' : 'idle'}`}
                title={c.stale}
              >
                {c.connected
                  ? 'Connected'
                  : c.stale
                    ? 'Out of date'
                    : c.installed
                      ? 'Not connected'
                      : 'Not found'}
              </span>{' '}
              {c.stale && (
                <span className="hint" data-testid="client-stale">
                  {/* Issue 29.1: its entry reaches another port (or a revoked token); Reconnect fixes it. */}
                  {c.stale.replace(/; run "airlock clients connect [^"]+"$/, '')}.{' '}
                </span>
              )}
              <span className="hint">
                {c.files
                  .filter((f) => f.exists)
                  .map((f) => (f.error ? `${f.path}: ${f.error}` : `${f.servers} servers`))
                  .join(' · ')}
              </span>{' '}
              {c.installed && (
                <button
                  type="button"
                  className="small"
                  disabled={busy !== null}
                  onClick={() => {
                    setRemoveImported(false);
                    void preview(c, false);
                  }}
                  data-testid="client-connect"
                  aria-label={`${c.stale ? 'Reconnect' : 'Connect'} ${c.label}`}
                >
                  {busy === `plan:${c.id}`
                    ? 'Checking…'
                    : `${c.stale ? 'Reconnect' : 'Connect'} ${c.label}`}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        <button
          type="button"
          disabled={busy !== null}
          onClick={() => void planImport()}
          data-testid="clients-import"
        >
          {busy === 'plan-import' ? 'Looking…' : 'Import their servers…'}
        </button>
      </div>
      <div aria-live="polite">
        {done && (
          <p className="notice-inline" data-testid="clients-done">
            {done}
          </p>
        )}
      </div>
      {error && !connecting && !importing && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={connecting !== null}
        title={`Connect ${connecting?.client.label ?? ''}?`}
        confirmLabel="Connect"
        busy={busy === 'connect'}
        error={connecting ? error : null}
        onConfirm={() => void connect()}
        onCancel={() => setConnecting(null)}
        testId="client-connect-dialog"
      >
        {connecting && (
          <>
            <ul>
              {connecting.plan.files.map((f) => (
                <li key={f.path}>
                  <span className="mono">{f.path}</span>:{' '}
                  {!f.changed
                    ? 'no change'
                    : [
                        f.entry && f.entry !== 'unchanged'
                          ? `Airlock entry ${f.entry === 'added' ? 'added' : 'updated'}`
                          : '',
                        f.removed.length ? `removes ${f.removed.join(', ')}` : '',
                      ]
                        .filter(Boolean)
                        .join('; ')}
                </li>
              ))}
            </ul>
            <label className="inline">
              <input
                type="checkbox"
                checked={removeImported}
                onChange={(e) => {
                  setRemoveImported(e.target.checked);
                  void preview(connecting.client, e.target.checked);
                }}
                data-testid="client-remove-imported"
              />{' '}
              Also remove the servers imported from {connecting.client.label}, so it reaches them
              only through Airlock
            </label>
            <p className="hint">
              The file is backed up first. {connecting.client.label} uses the agent “
              {connecting.plan.agent}”; its token is written into that file.
            </p>
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={importing !== null}
        title="Import servers"
        confirmLabel={`Import ${toAdd.length} server${toAdd.length === 1 ? '' : 's'}`}
        busy={busy === 'import'}
        error={importing ? error : null}
        onConfirm={() => void doImport()}
        onCancel={() => setImporting(null)}
        testId="clients-import-dialog"
      >
        {importing && importing.items.length === 0 && <p>No servers found in these apps.</p>}
        {importing && importing.items.length > 0 && (
          <ul>
            {importing.items.map((i) => (
              <li key={`${i.client}:${i.file}:${i.name}`} data-testid="import-item">
                <strong>{i.name}</strong> from {i.client}:{' '}
                {i.action === 'add'
                  ? `adds “${i.as}” (${i.kind === 'stdio' ? 'local' : 'URL'})${i.secretNames.length ? `; to the keychain: ${i.secretNames.join(', ')}` : ''}`
                  : `skipped (${i.reason ?? ''})`}
                {i.warnings.map((w) => (
                  <span key={w} className="hint">
                    {' '}
                    — {w}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        )}
      </ConfirmDialog>
    </section>
  );
}
