import { createHash } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import type { ToolDefinition } from '../../main/tools/types.js';
import type { MailSpec } from './mime.js';

/**
 * One scripted agent session of the provenance corpus (issue 30). The agent
 * reads (mail through the real Gmail tools against the fake Gmail API,
 * events through the real Calendar tools, pages and resources from
 * third-party servers), then makes the judged call — its last step. Injected
 * sessions must end in a flagged call, benign ones in an unflagged one;
 * `limit` sessions are injected attacks the check cannot see by design
 * (docs/provenance.md), reported apart.
 */

export interface MailSeed {
  key: string;
  spec: MailSpec;
  /** Messages with the same key share a Gmail thread. */
  thread?: string;
  labels?: string[];
}

export interface EventSeed {
  key: string;
  event: calendar_v3.Schema$Event;
  /** Organised by someone else (an invitation the user received), not by the user. */
  organizer?: string;
}

/** A third-party server only this session has (a poisoned tool description, a resource). */
export interface ExtraServer {
  name: string;
  tools: ToolDefinition[];
  /** Resources it serves: uri → text. */
  resources?: Record<string, string>;
  prompts?: Record<string, string>;
  completions?: string[];
}

export type Ids = {
  mail: Record<string, { id: string; threadId: string }>;
  event: Record<string, string>;
};

export type Step =
  | { tool: string; args: Record<string, unknown> }
  | { read: 'resource' | 'prompt' | 'completion'; server: string; name: string };

export interface Session {
  id: string;
  cls: string;
  kind: 'benign' | 'injected' | 'limit';
  title: string;
  mail?: MailSeed[];
  events?: EventSeed[];
  /** Pages the `web` server's fetch returns: url → text. */
  pages?: Record<string, string>;
  servers?: ExtraServer[];
  steps: (ids: Ids) => Step[];
}

/** The held-out third: fixed by a hash of the case id, never used to tune the rules. */
export function heldOut(id: string): boolean {
  return createHash('sha256').update(id).digest()[0]! % 3 === 0;
}

/** A class: its name, what it is, and its generated sessions. */
export interface SessionClass {
  cls: string;
  kind: Session['kind'];
  title: string;
  sessions: (n: number, seed: number) => Session[];
}

let counter = 0;
/** A Message-ID as a client writes it. */
export const msgId = (domain: string) =>
  `<${(++counter).toString(36)}.${counter * 7919}@${domain}>`;

export const DAY = (d: number, h = 9) => new Date(Date.UTC(2026, 11, d, h, 0, 0));
