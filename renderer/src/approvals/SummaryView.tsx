import type { ApprovalView } from '../../../common/contract';
import { ClippedText, Revealed } from './Revealed';
import { parseEffect, summarize, type EmailSummary, type EventSummary } from './summary';

/**
 * Below the effect's headline: the e-mail or event the call would produce,
 * laid out for a two-second decision, or the rest of the effect text.
 */
export function SummaryView({ approval }: { approval: ApprovalView }) {
  const s = summarize(approval);
  if (s.kind === 'email')
    return <EmailPreview mail={s} subjectField={hasProperty(approval.inputSchema, 'subject')} />;
  if (s.kind === 'event') return <EventPreview event={s} />;
  if (approval.thirdParty) return null;
  const { fields, rest } = parseEffect(approval.effect);
  if (fields.length === 0 && !rest) return null;
  return (
    <div className="preview" data-testid="summary-generic">
      {fields.length > 0 && (
        <dl className="preview-head">
          {fields.map(([k, v], i) => (
            <div key={i}>
              <dt>{k}</dt>
              <dd>
                <Revealed text={v} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {rest && (
        <div className="mail-body">
          <ClippedText text={rest} />
        </div>
      )}
    </div>
  );
}

/** The row naming the arguments a preview laid out from them does not show (summary.ts). */
const NOT_SHOWN = 'Not in this preview';

const hasProperty = (schema: Record<string, unknown>, name: string) =>
  typeof schema.properties === 'object' && schema.properties !== null && name in schema.properties;

/** `subjectField`: the tool takes a subject, so a missing one is worth saying. */
function EmailPreview({ mail, subjectField }: { mail: EmailSummary; subjectField: boolean }) {
  const rows: [string, string][] = [];
  if (mail.from) rows.push(['From', mail.from]);
  if (mail.to.length) rows.push(['To', mail.to.join(', ')]);
  if (mail.cc.length) rows.push(['Cc', mail.cc.join(', ')]);
  if (mail.bcc.length) rows.push(['Bcc', mail.bcc.join(', ')]);
  if (mail.subject) rows.push(['Subject', mail.subject]);
  else if (mail.reply) rows.push(['Subject', '(the thread’s subject)']);
  else if (subjectField) rows.push(['Subject', '(no subject)']);
  if (mail.inReplyTo) rows.push(['In reply to', mail.inReplyTo]);
  // Every attached file on its own row: name, type, size and the message it is taken from.
  for (const a of mail.attachments) rows.push(['Attachment', a]);
  if (mail.unshown) rows.push([NOT_SHOWN, mail.unshown.join(', ')]);
  return (
    <figure className="preview mail" data-testid="summary-email">
      <figcaption className="visually-hidden">
        The e-mail as it will be sent{mail.reply ? ' (a reply in its thread)' : ''}
      </figcaption>
      <dl className="preview-head">
        {rows.map(([k, v], i) => (
          <div
            key={i}
            {...(k === 'Attachment' ? { 'data-testid': 'summary-email-attachment' } : {})}
          >
            <dt>{k}</dt>
            <dd>
              <Revealed text={v} />
            </dd>
          </div>
        ))}
      </dl>
      {mail.body !== undefined && (
        <div className="mail-body">
          {mail.body ? (
            <ClippedText text={mail.body} testId="summary-email-body" />
          ) : (
            <span className="hint" data-testid="summary-email-body">
              (empty message)
            </span>
          )}
        </div>
      )}
    </figure>
  );
}

function EventPreview({ event }: { event: EventSummary }) {
  const rows: [string, string][] = [];
  if (event.what) rows.push(['What', event.what]);
  if (event.when) rows.push(['When', event.when]);
  if (event.where) rows.push(['Where', event.where]);
  if (event.who.length) rows.push(['Who', event.who.join(', ')]);
  if (event.removed.length) rows.push(['Removed', event.removed.join(', ')]);
  if (event.repeats) rows.push(['Repeats', event.repeats]);
  if (event.response) rows.push(['Answer', event.response]);
  if (event.notify) rows.push(['E-mails', event.notify]);
  if (event.unshown) rows.push([NOT_SHOWN, event.unshown.join(', ')]);
  return (
    <figure className="preview event" data-testid="summary-event">
      <figcaption className="visually-hidden">The calendar event</figcaption>
      <dl className="preview-head">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>
              <Revealed text={v} />
            </dd>
          </div>
        ))}
      </dl>
    </figure>
  );
}
