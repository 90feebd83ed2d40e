import { useState } from 'react';
import { useConnected, useControl } from '../lib/control';
import { errorMessage } from '../lib/errors';
import { useStatus } from './status';

/** Endpoint URL (copy), running state, agents connected, and the "pause side effects" switch. */
export function StatusBar({ compact = false }: { compact?: boolean }) {
  const { api } = useControl();
  const { status, error, setStatus } = useStatus();
  const connected = useConnected();
  const [copied, setCopied] = useState(false);
  const [pauseBusy, setPauseBusy] = useState(false);
  const [pauseError, setPauseError] = useState<string | null>(null);

  const copy = async () => {
    if (!status) return;
    try {
      await navigator.clipboard.writeText(status.mcpUrl);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard refused (permissions): select the text so the user can copy it by hand.
      const el = document.getElementById('mcp-url');
      if (el) window.getSelection()?.selectAllChildren(el);
    }
  };

  const togglePause = async () => {
    if (!status) return;
    setPauseBusy(true);
    setPauseError(null);
    try {
      setStatus(await api.setPaused(!status.paused));
    } catch (err) {
      setPauseError(errorMessage(err));
    } finally {
      setPauseBusy(false);
    }
  };

  const state = error
    ? 'error'
    : !connected
      ? 'reconnecting'
      : status?.running
        ? 'running'
        : 'loading';
  const stateText = {
    error: `Not reachable: ${error}`,
    reconnecting: 'Reconnecting…',
    running: 'Running',
    loading: 'Connecting…',
  }[state];

  return (
    <div className="status-bar" role="region" aria-label="Airlock status" data-testid="status-bar">
      <span className={`dot ${state}`} aria-hidden="true" />
      <span data-testid="run-state">{stateText}</span>
      {status && !compact && (
        <>
          <span className="sep" aria-hidden="true" />
          <span className="mcp-url">
            <span className="hint">MCP URL </span>
            <code id="mcp-url" data-testid="mcp-url">
              {status.mcpUrl}
            </code>{' '}
            <button
              type="button"
              className="small"
              onClick={() => void copy()}
              aria-label="Copy MCP URL"
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </span>
          <span className="sep" aria-hidden="true" />
          <span data-testid="agents-connected">
            {status.agentsConnected} {status.agentsConnected === 1 ? 'agent' : 'agents'} connected
          </span>
          {status.vault && (
            <>
              <span className="sep" aria-hidden="true" />
              {/* Issue 19: where secrets are, and for the file vault its trade-off, in the window. */}
              <span
                data-testid="vault-kind"
                title={status.vault.tradeOff ?? status.vault.why}
                aria-describedby="vault-help"
              >
                Secrets: {status.vault.kind === 'file' ? 'encrypted file vault' : 'OS keychain'}
              </span>
              <span id="vault-help" className="visually-hidden">
                {status.vault.tradeOff ?? status.vault.why}
              </span>
            </>
          )}
        </>
      )}
      {status && (
        <label className="switch">
          <button
            type="button"
            role="switch"
            aria-checked={status.paused}
            disabled={pauseBusy}
            onClick={() => void togglePause()}
            data-testid="pause-switch"
            aria-describedby="pause-help"
          >
            <span className="track" aria-hidden="true" />
          </button>
          <span>Pause side effects</span>
        </label>
      )}
      {status && (
        <span id="pause-help" className="visually-hidden">
          While paused, every call that needs approval is denied at once.
        </span>
      )}
      {pauseError && (
        <span className="error" role="alert">
          {pauseError}
        </span>
      )}
    </div>
  );
}
