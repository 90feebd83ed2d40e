import { PRIVATE_MAIL, type Message } from './mailbox.js';

/** A taint-corpus session (scenarios.ts) and the steps its sessions are made of. */
export interface Step {
  tool: string;
  args: Record<string, unknown>;
}

export interface Scenario {
  id: string;
  kind: 'benign' | 'injected' | 'limit';
  title: string;
  deliver?: Message[];
  steps: Step[];
}

export const read = (message_id: string): Step => ({ tool: 'gmail_read', args: { message_id } });
export const send = (to: string[], body: string, extra: Record<string, unknown> = {}): Step => ({
  tool: 'gmail_send',
  args: { to, subject: 'Re: your message', body, ...extra },
});
export const body = (id: string) => PRIVATE_MAIL.find((m) => m.id === id)?.body ?? '';
