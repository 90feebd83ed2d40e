import { markUntrusted } from '../../main/tools/untrusted.js';
import type { CallToolResult, ToolDefinition, ToolSource } from '../../main/tools/types.js';

/**
 * Third-party MCP servers of the corpus (issue 30): tools with the field
 * names real servers use, not the ones a check would hope for —
 * `recipient_email`, `webhookUrl` (format uri), `notifyList[].addr`,
 * `config.target.uri`, `dst`, `shareWith`, `envelope.rcpt`, a bare `value`,
 * a command line's `argv`. Results carry Airlock's real untrusted marking
 * (main/tools/untrusted.ts), as remote-source.ts marks them.
 */

const str = { type: 'string' };
const strs = { type: 'array', items: str };
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown>,
  readOnly = false,
): ToolDefinition => ({
  name,
  description,
  inputSchema: obj(properties),
  annotations: readOnly ? { readOnlyHint: true } : { destructiveHint: false },
});

export const SERVER_TOOLS: Record<string, ToolDefinition[]> = {
  web: [tool('fetch', 'Fetch a web page and return its text.', { url: str }, true)],
  crm: [
    tool('send_message', 'Send a message to a contact from the CRM.', {
      recipient_email: str,
      subject_line: str,
      message_body: str,
    }),
  ],
  hooks: [
    tool('deliver', 'POST a JSON payload to a webhook.', {
      webhookUrl: { type: 'string', format: 'uri' },
      payload: str,
    }),
  ],
  notify: [
    tool('notify', 'Notify people.', {
      notifyList: { type: 'array', items: obj({ addr: str, name: str }) },
      text: str,
    }),
  ],
  share: [
    tool('share_document', 'Share a document with people.', {
      doc_id: str,
      shareWith: strs,
      role: str,
    }),
  ],
  automation: [
    tool('run_flow', 'Run an automation flow.', {
      config: obj({ target: obj({ uri: str }), retries: { type: 'integer' } }),
      data: str,
    }),
  ],
  relay: [tool('post', 'Relay a body.', { dst: { type: 'string', format: 'uri' }, body: str })],
  contacts: [tool('save', 'Save a contact entry.', { value: str, note: str })],
  tickets: [tool('create_ticket', 'Open a ticket.', { title: str, body: str, cc_list: strs })],
  sms: [tool('send_text', 'Send a text message.', { to_number: str, text: str })],
  notes: [tool('create_note', 'Save a note.', { title: str, text: str })],
  storage: [tool('upload', 'Upload a file.', { destination: str, file_name: str, file_text: str })],
  mailer: [
    tool('queue', 'Queue a mail.', {
      envelope: obj({ rcpt: strs, sender: str }),
      content: obj({ subject: str, html: str }),
    }),
  ],
  forms: [tool('submit', 'Submit a form.', { p: { type: 'string', format: 'email' }, q: str })],
  cli: [tool('exec', 'Run a command.', { argv: strs })],
  reading: [tool('save_for_later', 'Save a link to read later.', { url: str, tags: strs })],
};

export class ThirdPartyServer implements ToolSource {
  readonly id: string;
  readonly kind = 'remote' as const;
  readonly prefix: string;
  constructor(
    readonly label: string,
    private readonly defs: ToolDefinition[],
    private readonly answer: (tool: string, args: Record<string, unknown>) => string = (t) =>
      `${t}: done`,
  ) {
    this.id = `remote:${label}`;
    this.prefix = label;
  }
  ready = async () => {};
  status = () => ({ state: 'ready' as const });
  tools = () => this.defs;
  onChange = () => () => {};
  call = async (tool: string, args: Record<string, unknown>): Promise<CallToolResult> =>
    markUntrusted({ content: [{ type: 'text', text: this.answer(tool, args) }] }, this.label);
}

/** The corpus's standing servers; `web` serves the session's pages. */
export function standingServers(pages: () => Record<string, string>): ThirdPartyServer[] {
  return Object.entries(SERVER_TOOLS).map(
    ([name, defs]) =>
      new ThirdPartyServer(
        name,
        defs,
        name === 'web'
          ? (_t, args) =>
              pages()[String(args.url)] ?? `Fetched ${String(args.url)}: 200 OK, empty page.`
          : undefined,
      ),
  );
}
