import { useId, useState, type FormEvent } from 'react';
import type { RemotePatch, RemoteView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { HeaderRows, headersFrom, type HeaderRow } from './HeaderRows';

type TokenChoice = 'keep' | 'replace' | 'remove';

/** Change a server's URL, token or headers. Secrets are replaced, never shown. */
export function EditServerForm({
  server,
  onSaved,
  onCancel,
}: {
  server: RemoteView;
  onSaved: (r: RemoteView) => void;
  onCancel: () => void;
}) {
  const { api } = useControl();
  const id = useId();
  const [url, setUrl] = useState(server.url);
  const [tokenChoice, setTokenChoice] = useState<TokenChoice>('keep');
  const [token, setToken] = useState('');
  const [replaceHeaders, setReplaceHeaders] = useState(false);
  const [rows, setRows] = useState<HeaderRow[]>(() =>
    server.headerNames.map((name) => ({ name, value: '' })),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const patch: RemotePatch = {};
    if (url.trim() !== server.url) patch.url = url.trim();
    if (tokenChoice === 'remove') patch.bearerToken = null;
    if (tokenChoice === 'replace') {
      if (!token.trim()) return setError('Type the new token, or keep the current one.');
      patch.bearerToken = token.trim();
    }
    if (replaceHeaders) {
      const h = headersFrom(rows);
      if (!h.ok) return setError(h.error);
      patch.headers = h.headers;
    }
    setBusy(true);
    setError(null);
    try {
      onSaved(await api.updateRemote(server.name, patch));
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
      noValidate
    >
      <div className="field">
        <label htmlFor={`${id}-url`}>URL</label>
        <input
          id={`${id}-url`}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          spellCheck={false}
        />
      </div>
      <fieldset>
        <legend>Bearer token</legend>
        {(['keep', 'replace', 'remove'] as const).map((c) => (
          <label key={c} className="radio">
            <input
              type="radio"
              name={`${id}-tok`}
              value={c}
              checked={tokenChoice === c}
              onChange={() => setTokenChoice(c)}
              disabled={c === 'remove' && !server.hasToken}
            />
            {c === 'keep'
              ? server.hasToken
                ? 'Keep the current token'
                : 'No token'
              : c === 'replace'
                ? 'Set a new token'
                : 'Remove the token'}
          </label>
        ))}
        {tokenChoice === 'replace' && (
          <div className="field">
            <label htmlFor={`${id}-token`}>New token</label>
            <input
              id={`${id}-token`}
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </div>
        )}
      </fieldset>
      <div className="field checkbox">
        <input
          id={`${id}-rh`}
          type="checkbox"
          checked={replaceHeaders}
          onChange={(e) => setReplaceHeaders(e.target.checked)}
        />
        <label htmlFor={`${id}-rh`}>Replace the extra headers (values must be typed again)</label>
      </div>
      {replaceHeaders && <HeaderRows rows={rows} onChange={setRows} disabled={busy} />}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
