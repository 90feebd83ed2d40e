import { useId, useState, type DragEvent, type FormEvent } from 'react';
import type { GoogleClientView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';

const MAX_BYTES = 64 * 1024;

/**
 * First run: the user's own Google OAuth client ("Desktop app"). Import the
 * downloaded client_secret_….json by file picker or drag-and-drop, or type
 * the ID and secret. The ID goes to settings, the secret to the keychain.
 */
export function ClientSetup({
  current,
  onSaved,
  onCancel,
}: {
  current: GoogleClientView | null;
  onSaved: (c: GoogleClientView) => void;
  onCancel?: () => void;
}) {
  const { api } = useControl();
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');

  const save = async (input: Parameters<typeof api.setGoogleClient>[0]) => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await api.setGoogleClient(input));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_BYTES)
      return setError(
        `${file.name} is too large for a client file (${Math.round(file.size / 1024)} KB). Choose the client_secret_….json you downloaded from Google Cloud.`,
      );
    await save({ json: await file.text() });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void importFile(e.dataTransfer.files[0]);
  };

  const submitTyped = (e: FormEvent) => {
    e.preventDefault();
    if (!clientId.trim() || !secret.trim())
      return setError('Type both the client ID and the client secret.');
    void save({ clientId: clientId.trim(), clientSecret: secret.trim() });
  };

  return (
    <section className="card client-setup" aria-labelledby={`${id}-h`} data-testid="client-setup">
      <h2 id={`${id}-h`}>
        {current ? 'Replace the Google OAuth client' : 'First, set up your Google OAuth client'}
      </h2>
      <p>
        Airlock talks to Google with an OAuth client that you own, so your mail never passes through
        anyone else’s app. It takes about five minutes, once:
      </p>
      <ol className="steps">
        <li>
          In{' '}
          <a href="https://console.cloud.google.com/projectcreate" target="_blank" rel="noreferrer">
            Google Cloud Console
          </a>
          , create a project and enable the <strong>Gmail API</strong> and the{' '}
          <strong>Google Calendar API</strong>.
        </li>
        <li>
          Set up the{' '}
          <a href="https://console.cloud.google.com/auth/overview" target="_blank" rel="noreferrer">
            OAuth consent screen
          </a>{' '}
          (External) and add your address as a test user. While the app is in “Testing”, Google ends
          the sign-in every 7 days; publish it to avoid that.
        </li>
        <li>
          Under{' '}
          <a
            href="https://console.cloud.google.com/apis/credentials"
            target="_blank"
            rel="noreferrer"
          >
            Credentials
          </a>
          , create an <strong>OAuth client ID</strong> of type <strong>Desktop app</strong> and
          download its JSON file.
        </li>
        <li>Import that file here.</li>
      </ol>
      <div
        className={dragging ? 'drop-zone dragging' : 'drop-zone'}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="client-drop"
      >
        <p aria-hidden="true">Drop client_secret_….json here, or</p>
        <label htmlFor={`${id}-file`} className="file-label">
          Choose the client_secret JSON file
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".json,application/json"
          disabled={busy}
          onChange={(e) =>
            void importFile(e.target.files?.[0]).finally(() => (e.target.value = ''))
          }
          data-testid="client-file"
        />
      </div>
      <details className="typed-client">
        <summary>Or type the client ID and secret</summary>
        <form onSubmit={submitTyped} noValidate>
          <div className="field">
            <label htmlFor={`${id}-cid`}>Client ID</label>
            <input
              id={`${id}-cid`}
              value={clientId}
              onChange={(e) => setClientId(e.target.value)}
              placeholder="1234-abc.apps.googleusercontent.com"
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-sec`}>Client secret</label>
            <input
              id={`${id}-sec`}
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
          <button type="submit" disabled={busy}>
            Save client
          </button>
        </form>
      </details>
      <div aria-live="polite">
        {busy && <p className="hint">Importing…</p>}
        {error && (
          <p className="error" role="alert" data-testid="client-error">
            {error}
          </p>
        )}
      </div>
      {onCancel && (
        <div className="actions">
          <button type="button" onClick={onCancel} disabled={busy}>
            Keep the current client
          </button>
        </div>
      )}
    </section>
  );
}
