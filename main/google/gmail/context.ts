import type { Recent, SeenMessages } from './cache.js';
import type { GmailClient } from './client.js';
import type { DraftMemory } from './draft-view.js';
import type { LabelDirectory } from './labels.js';
import type { AttachmentSource } from './outgoing-attachments.js';
import type { AdaptivePool } from './pool.js';
import type { SendAsNames } from './send-as.js';

/** What one tool call works with: the account's client and the source's shared state. */
export interface GmailCallContext {
  client: GmailClient;
  labels: LabelDirectory;
  seen: SeenMessages;
  drafts: DraftMemory;
  sendAs: SendAsNames;
  /** The messages whose attachments outgoing mail forwards, as last read (for the card). */
  attachmentSources: Recent<AttachmentSource>;
  /** A fresh pool per call, so one call's throttling never slows another's. */
  pool: () => AdaptivePool;
  maxAttachmentBytes: number;
  /** Largest file gmail_get_attachment hands over. */
  maxDownloadBytes: number;
  /** More than one account connected: results name the account. */
  showAccount: boolean;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function int(v: unknown, fallback: number, min: number, max: number): number {
  const n = typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : fallback;
  return Math.min(max, Math.max(min, n));
}

export function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.trim() ? [v] : [];
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    : [];
}
