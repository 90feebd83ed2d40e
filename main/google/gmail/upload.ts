import { Readable } from 'node:stream';
import type { gmail_v1 } from '@googleapis/gmail';

/**
 * How a composed message travels to Gmail. messages.send, drafts.create and drafts.update take it
 * either base64url in the JSON body (`raw`) or whole at the method's media upload URI
 * (`/upload/gmail/v1/…`, developers.google.com/gmail/api/guides/uploads; accepted media type
 * message/*, up to 35 MB per the methods' reference). A JSON body is bounded by Google's request
 * payload limit — 400 "Request payload size exceeds the limit: 5242880 bytes", and lower limits
 * have been reported (googleapis/google-api-dotnet-client#856: 1048576) — so a message whose `raw`
 * would pass 1 MiB goes by upload: `uploadType=media` when there is no metadata, `multipart`
 * (the JSON metadata, then the message) when there is a thread or a draft (the googleapis client
 * picks which from `requestBody`). Smaller messages keep the JSON body, the path every other
 * Gmail write of Airlock's has taken against real Gmail. The bytes sent are the composer's
 * either way.
 */
export const JSON_RAW_LIMIT = 1024 * 1024;

const media = (mime: Buffer) => ({ mimeType: 'message/rfc822', body: Readable.from([mime]) });
const bigger = (mime: Buffer) => Math.ceil(mime.length / 3) * 4 > JSON_RAW_LIMIT;

/** messages.send's request: `raw` in the body, or the message uploaded. */
export function sendRequest(
  mime: Buffer,
  threadId: string | undefined,
): Pick<gmail_v1.Params$Resource$Users$Messages$Send, 'requestBody' | 'media'> {
  const thread = threadId ? { threadId } : {};
  if (!bigger(mime)) return { requestBody: { raw: mime.toString('base64url'), ...thread } };
  return { ...(threadId ? { requestBody: thread } : {}), media: media(mime) };
}

/** drafts.create / drafts.update's request: the draft with `raw`, or its metadata and the upload. */
export function draftRequest(
  mime: Buffer,
  threadId: string | undefined,
  id?: string,
): Pick<gmail_v1.Params$Resource$Users$Drafts$Create, 'requestBody' | 'media'> {
  const thread = threadId ? { threadId } : {};
  const draftId = id ? { id } : {};
  if (!bigger(mime))
    return { requestBody: { ...draftId, message: { raw: mime.toString('base64url'), ...thread } } };
  return { requestBody: { ...draftId, message: thread }, media: media(mime) };
}
