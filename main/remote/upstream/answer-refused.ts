/**
 * An answer Airlock refused to read: over one message's size bound (http/lean-fetch.ts), holding
 * more JSON values than one may (json-values.ts), or past the budget for answers being read at
 * once (in-flight.ts). The server did answer, so the call reached it; remote-calls.ts says so
 * rather than "may or may not have reached it" or "became unreachable".
 */
export class AnswerRefused extends Error {}
