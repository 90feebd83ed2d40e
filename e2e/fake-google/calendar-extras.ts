import { ApiError, type Event, type StoredCalendar } from './calendar-store.js';

/**
 * The fake Calendar's rules for reminders, colours, status events and
 * attachments, after the Events resource
 * (developers.google.com/calendar/api/v3/reference/events) and the guide on
 * focus time / out of office (guides/calendar-status): at most 5 override
 * reminders of 0–40320 minutes, not together with useDefault; colorId 1–11
 * (colors.get "event"); outOfOffice and focusTime events only on a primary
 * calendar, timed, without attendees, and an event's type never changes;
 * attachments are kept only when the request says supportsAttachments=true
 * ("Whether API client performing operation supports event attachments"), at
 * most 25. The error texts are the fake's own.
 */
export function checkExtras(
  cal: StoredCalendar,
  next: Event,
  body: Event,
  supportsAttachments: boolean,
  previous?: Event,
): void {
  const r = body.reminders;
  if (r) {
    const overrides = r.overrides ?? [];
    if (r.useDefault && overrides.length)
      throw new ApiError(
        400,
        'cannotUseDefaultRemindersAndSpecifyOverride',
        'Cannot specify both default reminders and overrides at the same time.',
      );
    if (overrides.length > 5) throw new ApiError(400, 'invalid', 'Too many reminders.');
    for (const o of overrides)
      if (!['email', 'popup'].includes(o.method ?? '') || !(o.minutes! >= 0 && o.minutes! <= 40320))
        throw new ApiError(400, 'invalid', 'Invalid reminder.');
  }
  if (body.colorId !== undefined && !/^(?:[1-9]|1[01])$/.test(String(body.colorId)))
    throw new ApiError(400, 'invalid', 'Invalid color id.');
  if (previous && body.eventType && body.eventType !== (previous.eventType ?? 'default'))
    throw new ApiError(400, 'invalid', 'The event type cannot be changed.');
  const type = next.eventType ?? 'default';
  if (type === 'outOfOffice' || type === 'focusTime') {
    if (!cal.primary)
      throw new ApiError(
        400,
        'invalid',
        `${type} events can only be created on the primary calendar.`,
      );
    if (next.start?.date) throw new ApiError(400, 'invalid', `${type} events cannot be all-day.`);
    if (next.attendees?.length)
      throw new ApiError(400, 'invalid', `${type} events cannot have attendees.`);
  }
  if (body.attachments && !supportsAttachments) {
    // Ignored without supportsAttachments: the stored event keeps what it had.
    if (previous?.attachments) next.attachments = previous.attachments;
    else delete next.attachments;
  }
  if ((next.attachments?.length ?? 0) > 25)
    throw new ApiError(400, 'invalid', 'Too many attachments.');
  next.attachments = next.attachments?.map((a) => ({
    title: a.title ?? 'Untitled',
    mimeType: a.mimeType ?? 'application/vnd.google-apps.document',
    iconLink:
      'https://drive-thirdparty.googleusercontent.com/16/type/application/vnd.google-apps.document',
    ...a,
    fileId: /\/d\/([\w-]+)/.exec(a.fileUrl ?? '')?.[1] ?? a.fileId ?? '',
  }));
  if (next.attachments && next.attachments.length === 0) delete next.attachments;
}
