import type { RemoteProbeResult } from '../../../../common/contract';
import { plural } from '../../lib/format';

/** What "Test connection" found: the tools offered, or the server's exact error. */
export function ProbeResult({ result }: { result: RemoteProbeResult }) {
  if (!result.ok) {
    return (
      <div className="probe bad" role="alert" data-testid="probe-result" data-ok="false">
        <p>
          <strong>Could not connect.</strong> {result.detail ?? 'The server gave no reason.'}
        </p>
        <p className="hint">
          Check the URL (it usually ends in /mcp) and the token or headers the server expects.
        </p>
      </div>
    );
  }
  const shown = result.tools.slice(0, 8);
  return (
    <div className="probe ok" role="status" data-testid="probe-result" data-ok="true">
      <p>
        <strong>Connected</strong>
        {result.server && (
          <>
            {' '}
            to {result.server.name} {result.server.version}
          </>
        )}
        : {plural(result.tools.length, 'tool')} offered
        {result.transport && (
          <span className="hint">
            {' '}
            · {result.transport === 'sse' ? 'SSE (older servers)' : 'streamable HTTP'}
          </span>
        )}
        {result.protocolVersion && <span className="hint"> · MCP {result.protocolVersion}</span>}
      </p>
      {shown.length > 0 && (
        <p className="hint tool-names">
          {shown.map((t) => t.name).join(', ')}
          {result.tools.length > shown.length && `, and ${result.tools.length - shown.length} more`}
        </p>
      )}
    </div>
  );
}
