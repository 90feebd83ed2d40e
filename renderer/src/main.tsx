import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ControlProvider } from './lib/control';
import { OPEN_CODE_SPENT } from '../../common/open-code';
import { errorCode, errorMessage } from './lib/errors';
import { EventHub } from './lib/hub';
import {
  chooseTransport,
  forgetControlToken,
  OPEN_CODE_FAILED,
  type Transport,
} from './lib/transport';
import { App } from './shell/App';
import { NoToken } from './shell/NoToken';
import { StatusProvider } from './shell/status';
import './styles.css';
import './pages.css';

/** Start-up: pick the transport, check the token works, follow events, render. */
function Root() {
  const [choice] = useState(chooseTransport);
  if (!choice.ok) return <NoToken codeLost={choice.codeLost} />;
  return <Connected transport={choice.transport} />;
}

function Connected({ transport }: { transport: Transport }) {
  const [hub] = useState(() => new EventHub());
  const [rejected, setRejected] = useState<false | 'token' | 'code' | { failed: string }>(false);

  useEffect(() => transport.subscribe(hub.emit, hub.setConnected), [transport, hub]);
  useEffect(() => {
    transport.api.getStatus().catch((err: unknown) => {
      // The guard answers UNAUTHORIZED (401) or FORBIDDEN (403, an agent token).
      const code = errorCode(err) as string;
      if (code === 'UNAUTHORIZED' || code === 'FORBIDDEN') {
        if (transport.kind === 'http') forgetControlToken();
        setRejected('token');
      }
      // The one-time code of `airlock open` was used, unknown or expired (lib/transport.ts).
      if (code === OPEN_CODE_SPENT) setRejected('code');
      // Trading it failed otherwise (unreachable, another answer): the error says how.
      if (code === OPEN_CODE_FAILED) setRejected({ failed: errorMessage(err) });
    });
  }, [transport]);

  if (rejected === 'code') return <NoToken spentCode />;
  if (typeof rejected === 'object') return <NoToken codeFailure={rejected.failed} />;
  if (rejected) return <NoToken rejected />;
  return (
    <ControlProvider api={transport.api} hub={hub} kind={transport.kind}>
      <StatusProvider>
        <App />
      </StatusProvider>
    </ControlProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
