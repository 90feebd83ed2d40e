import { useState, type FormEvent } from 'react';
import type { RemoteView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { LocalServerFields } from './LocalServerFields';
import { stdioFrom, type EnvRow } from './local-model';
import { SandboxFields } from './SandboxFields';
import { sandboxFrom, sandboxState } from './sandbox-model';

/**
 * Change a local server's program, arguments, folder and plain variables
 * (issue 15) and its sandbox (issue 35); Airlock restarts it with them. Secret values are never shown:
 * they stay in the keychain unless a new secret variable is given, which
 * replaces them all.
 */
export function EditLocalForm({
  server,
  onSaved,
  onCancel,
}: {
  server: RemoteView & { stdio: NonNullable<RemoteView['stdio']> };
  onSaved: (r: RemoteView) => void;
  onCancel: () => void;
}) {
  const { api } = useControl();
  const s = server.stdio;
  const [fields, setFields] = useState({
    command: s.command,
    args: s.args.join('\n'),
    cwd: s.cwd ?? '',
    rows: Object.entries(s.env).map(([name, value]): EnvRow => ({ name, value, secret: false })),
  });
  const [sandbox, setSandbox] = useState(() => sandboxState(s.sandbox));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const stdio = stdioFrom(fields.command, fields.args, fields.cwd, fields.rows);
    if (!stdio.ok) return setError(stdio.error);
    const perm = sandboxFrom(sandbox);
    if (!perm.ok) return setError(perm.error);
    setBusy(true);
    setError(null);
    try {
      onSaved(
        await api.updateRemote(server.name, {
          stdio: stdio.stdio,
          ...(perm.sandbox ? { sandbox: perm.sandbox } : {}),
        }),
      );
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="edit-server"
      onSubmit={(e) => void submit(e)}
      aria-label={`Edit ${server.name}`}
      data-testid="edit-local-form"
      noValidate
    >
      <LocalServerFields
        {...fields}
        disabled={busy}
        onChange={(patch) => setFields((f) => ({ ...f, ...patch }))}
      />
      <SandboxFields value={sandbox} onChange={setSandbox} disabled={busy} />
      {s.secretEnvNames.length > 0 && (
        <p className="hint">
          Secret variables kept in the keychain: {s.secretEnvNames.join(', ')}. Adding a secret
          variable here replaces them all.
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Restarting…' : 'Save and restart'}
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
