import { useRef } from 'react';
import type { ClientSetup, NewAgent } from '../../../../common/contract';
import { CopyButton } from '../../components/CopyButton';
import { Tabs } from '../../components/Tabs';

const HOW: Record<ClientSetup['kind'], string> = {
  command: 'Run this in a terminal:',
  json: 'Add this to',
  toml: 'Add this to',
};

/**
 * A new agent's token — the one time it is shown — and ready-to-paste setup
 * for the common clients (from the core's `setup`). Closing it drops the
 * token from the page.
 */
export function NewAgentPanel({ created, onDone }: { created: NewAgent; onDone: () => void }) {
  const tokenRef = useRef<HTMLElement>(null);
  return (
    <section className="card new-agent" aria-labelledby="new-agent-h" data-testid="new-agent">
      <h2 id="new-agent-h">{created.agent.name} is ready to connect</h2>
      <div className="notice warn" role="note">
        <strong>Copy the token now:</strong> it is kept in your OS keychain, and Airlock never shows
        it again. If it is lost, revoke the agent and add it again.
      </div>
      <div className="field">
        <span className="label" id="new-agent-token-label">
          Token
        </span>
        <div className="copy-row">
          <code
            ref={tokenRef}
            className="secret"
            aria-labelledby="new-agent-token-label"
            data-testid="new-agent-token"
          >
            {created.token}
          </code>
          <CopyButton
            text={created.token}
            label="Copy the token"
            selectOnFail={() => tokenRef.current}
            testId="copy-token"
          />
        </div>
      </div>
      <p>
        MCP URL <code>{created.mcpUrl}</code> — send the token as{' '}
        <code>Authorization: Bearer …</code>. Or paste one of these:
      </p>
      <Tabs
        label="Setup for your client"
        tabs={created.setup.map((s) => ({
          id: s.client.replace(/\W+/g, '-').toLowerCase(),
          label: s.client,
          render: () => <SetupBlock setup={s} />,
        }))}
      />
      <div className="actions">
        <button type="button" className="primary" onClick={onDone} data-testid="new-agent-done">
          Done, I saved it
        </button>
      </div>
    </section>
  );
}

function SetupBlock({ setup }: { setup: ClientSetup }) {
  const ref = useRef<HTMLPreElement>(null);
  return (
    <div className="setup" data-testid="setup-block" data-client={setup.client}>
      <p>
        {HOW[setup.kind]} {setup.kind !== 'command' && <code>{setup.where}</code>}
        {setup.kind !== 'command' && (setup.kind === 'json' ? ' (merge with what is there):' : ':')}
      </p>
      <div className="code-block">
        <pre
          ref={ref}
          className="mono"
          tabIndex={0}
          aria-label={`${setup.client} setup`}
          data-testid="setup-text"
        >
          {setup.text}
        </pre>
        <CopyButton
          text={setup.text}
          label={`Copy the ${setup.client} setup`}
          selectOnFail={() => ref.current}
          testId="copy-setup"
        />
      </div>
      {setup.note && (
        <p className="hint" data-testid="setup-note">
          {setup.note}
        </p>
      )}
    </div>
  );
}
