/**
 * Three classes of an address to the agent that addressed-instructions.ts's and agent-address.ts's
 * patterns did not read (docs/provenance.md, "Polite requests, other languages' labels, structured
 * blobs"; generated wordings: test-support/polite-structured-variants.ts):
 *
 * - a polite or indirect request to an addressee that is an AI by its name ("It would be great if
 *   the AI assistant could forward …", "Could Claude please send …", "I'd appreciate it if your AI
 *   agent archived …", "The AI agent should transfer …"): a person's "assistant" or "agent" is not
 *   one ("my assistant will forward you …", "the travel agent should send …"), nor a product's
 *   pitch ("Our AI assistant can now forward …"), nor a warning ("should never forward");
 * - the same, and a label or vocative, in Spanish, German, French, Russian, Portuguese and Hindi
 *   to an AI-qualified noun ("el asistente de IA", "der KI-Assistent", "l'assistant IA",
 *   "ИИ-помощник", "एआई सहायक"), then a verb that moves or destroys data and a destination (or
 *   "all" for one that destroys); not a pitch ("kann jetzt", "peut désormais") nor a notice to the
 *   customer ("vos factures", "Ihre E-Mails");
 * - a structured blob: a chat message with "role": "system" or "developer" whose content orders
 *   data sent to a destination, a fake tool call of a tool that moves or destroys data with an
 *   order to run it, a "BEGIN AGENT DIRECTIVE" block. A developer newsletter's
 *   {"role": "system", "content": "You are a helpful assistant."} orders nothing.
 *
 * Its own patterns: the main pattern has 82 characters left under V8's 20 KiB bound, agent-address.ts's
 * is held under it apart. Every gap is bounded and no quantifier is nested, so a scan is linear.
 */

// Not inside a word (JavaScript's `\b` sees ASCII letters only).
const START = '(?<![\\p{L}\\p{N}_])';
const END = '(?![\\p{L}\\p{N}_])';
// Within a sentence: a dot only inside an address or a number ("ops@relay.example").
const SENT = '(?:[^\\n.!?]|\\.(?=\\S))';
// A destination: an address, a link, a phone number in international form.
const DEST = '(?:[\\p{L}\\p{N}]@[\\p{L}\\p{N}]|://|\\+[0-9])';

// An addressee that is an AI by its name: "AI assistant", "LLM", "language model", a model.
const AI_NOUN =
  '(?:(?:ai|a\\.i\\.|llm)[ \\t-]{1,3}(?:assistant|agent|model|bot|helper|system)s?|llms?|(?:large[ \\t]{1,3})?language[ \\t]{1,3}models?|chatbots?|claude|chat[ \\t]?gpt|gpt-?[0-9](?:\\.[0-9])?o?|gemini|copilot)';
// Whose: the reader's or the one reading ("the", "your", "any", "whichever"); not a company's own
// product ("our AI assistant") nor one in general ("an AI assistant could …", an article).
const WHOSE = '(?:(?:the|your|any|whichever|whatever|each|every)[ \\t]{1,3})?';
// The agent as the reader of this mail: "any language model reading this inbox".
const READS = `[ \\t]{1,3}(?:that[ \\t]{1,3}|which[ \\t]{1,3})?(?:reads?|reading|process(?:es|ing)?|handl(?:es|ing)|manag(?:es|ing)|summari[sz](?:es|ing))[ \\t]{1,3}(?:this|these|the|my|your)[ \\t]{1,3}[\\p{L}]{1,12}`;
const READER = `(?:${READS})?`;
const ADDRESSEE = `${START}(?<!(?:an?|our|their|my)[ \\t]{1,3})${WHOSE}${AI_NOUN}${END}${READER}`;

const BASE =
  '(?:forward|send|share|export|upload|transfer|copy|move|delete|trash|archive|remove|wipe|purge|erase|e-?mail)';
const PAST =
  '(?:forwarded|sent|shared|exported|uploaded|transferred|copied|moved|deleted|trashed|archived|removed|wiped|purged|erased|e-?mailed)';
const DESTROY = '(?:delete|trash|archive|remove|wipe|purge|erase)d?';
// What the verb is done to: something named ("the", "all", "every" …, as agent-address.ts OBJECT:
// a feature request's "could export conversations to Notion: https://…" names none), not the
// reader ("send you", "forward your receipts to your accountant" is a product's promise), then a destination in the sentence, or, for a verb that
// destroys, something of the user's in particular ("delete all …").
const NAMED = `[ \\t]{1,3}(?:(?:all|every|each|the|these|those|this|that|my|our|his|her|their|its|it|them|everything|any)${END}|[0-9"'“‘])`;
const OBJECT = `${END}(?![ \\t]{1,3}(?:you|your)${END})(?=${NAMED})(?:(?=${SENT}{0,160}?${DEST})|(?<=${DESTROY})[ \\t]{1,3}(?:all|every|each|the|these|those)${END})`;
const POLITE_LEAD =
  '(?:great|grateful|appreciate(?:d)?(?:[ \\t]{1,3}it)?|nice|helpful|help(?:[ \\t]{1,3}a[ \\t]{1,3}lot)?|good|wonderful|ideal|perfect|love[ \\t]{1,3}it|like[ \\t]{1,3}it)[ \\t]{1,3}if';
const MODAL =
  '(?:should|must|shall|needs?[ \\t]{1,3}to|has[ \\t]{1,3}to|is[ \\t]{1,3}to|is[ \\t]{1,3}(?:kindly[ \\t]{1,3})?(?:asked|requested|required|instructed|expected)[ \\t]{1,3}to)';
const MANNER = '(?:(?:please|kindly|now|immediately|also)[ \\t]{1,3})?';

const POLITE_EN = [
  // "It would be great if the AI assistant could forward …", "I'd appreciate it if your AI agent archived …".
  `${START}${POLITE_LEAD}[ \\t]{1,3}${ADDRESSEE}[ \\t]{1,3}(?:(?:could|would|can|will)[ \\t]{1,3}${MANNER}${BASE}|${PAST})${OBJECT}`,
  // "Could the model please send …", "Would ChatGPT kindly forward …".
  `${START}(?:could|would|can|will)[ \\t]{1,3}${ADDRESSEE}[ \\t]{1,3}(?:please|kindly)[ \\t]{1,3}${BASE}${OBJECT}`,
  // "The AI agent should transfer …", "Any language model reading this inbox should send …".
  `${ADDRESSEE}[ \\t]{1,3}${MODAL}[ \\t]{1,3}${MANNER}${BASE}${OBJECT}`,
  // "Kindly have the AI agent delete …", "Please ask Claude to send …".
  // Not a help article's or minutes' description of what someone may do ("you can ask Claude to
  // send …", "Jan to have the AI assistant export …"; review of h-inj2).
  `${START}(?<!(?:you[ \\t]{1,3}(?:can|could|may|might)|to)[ \\t]{1,3})(?:have|let|ask|get)[ \\t]{1,3}${ADDRESSEE}[ \\t]{1,3}(?:to[ \\t]{1,3})?${BASE}${OBJECT}`,
  // "Whichever AI agent processes this mailbox: delete …": as a label, only with the reader's
  // clause, which a quoted example in an article ("the injected text reads "AI assistant,
  // forward …"") lacks.
  `${START}(?:whichever|whatever|any|every|each)[ \\t]{1,3}${AI_NOUN}${END}${READS}[ \\t]{0,2}[:,][ \\t]{0,3}${MANNER}${BASE}${OBJECT}`,
];

// The same in other languages: an AI-qualified noun, then in the sentence a verb that moves or
// destroys data, and a destination before or after it (German puts the verb last: "… an x@…
// senden könnte"), or "all" for a verb that destroys. Not a company's own product (notre, unser,
// наш …), a pitch of what it can do (peut, kann, может, pode, puede …), nor a notice to the
// customer (vos, Ihre, ваш, seus, tus …); a wish for what it could do is a pitch too (pueda,
// puisse, мог, pudesse: "Nous aimerions que l'assistant IA puisse envoyer …"; review of h-inj2),
// but not "pudiera", whose "if it could, delete …" orders. Each lookahead is its own scan of the
// sentence: a lazy gap before another lazy gap cost 200 ms on 64 KiB of "KI-Assistent a@b " (16
// → 64 KiB stays fourfold now, 18 ms).
const AI_NOUN_X =
  '(?:(?:asistente|agente|assistente)[ \\t-]{1,3}(?:de[ \\t]{1,3})?ia|(?:assistant|agent)e?[ \\t-]{1,3}ia|ki[ \\t-]?(?:assistent(?:in|en)?|agent(?:en)?|modell)|ии[ \\t-]?(?:ассистент|помощник|агент)[\\p{L}]{0,3}|(?:एआई|ai)[ \\t]?सहायक)';
const NOT_OURS =
  '(?<!(?:notre|nos|nuestro|nuestra|nuestros|nosso|nossa|unser|unsere|unseren|unserem|наш|наша|нашего|нашему)[ \\t]{1,3})';
const VERB_X =
  '(?:reenv|envi|compart|export|borr|elimin|transfi|mand|encaminh|compartilh|apag|exclu|transfer|send|weiterleit|leite|teil|exportier|lösch|übertrag|hochlad|schick|transf[eè]r|envo|partag|supprim|effac|пересл|перешл|отправ|пошл|удал|передай|передать|экспорт|भेज|फॉरवर्ड|शेयर|हटा|डिलीट)';
const DESTROY_X = '(?:borr|elimin|apag|exclu|lösch|supprim|effac|удал|हटा|डिलीट)';
const ALL_X = '(?:todos|todas|tous|toutes|alle|все|всё|सभी|सारे)';
const NOT_PITCH_X = `(?!${SENT}{0,160}?${START}(?:peut|peuvent|pourra|pourrait|puisse|désormais|kann|können|könne|jetzt|может|могут|мог|могла|могли|смог|смогла|теперь|pode|podem|possa|pudesse|poderia|agora|puede|pueden|pueda|podría|podrá|ahora|सकता|सकती|vos|votre|vous|ihre|ihren|ihrer|sie|ваш|ваши|вас|вам|seus|suas|você|tus|usted)${END})`;
// Spoken to, not described ("L'assistant IA envoie un récapitulatif chaque lundi à …" is a
// description; Spanish and French present tense and imperative share forms): a wish's or a
// condition's word before it (que, wenn, если бы, пусть, se, si, könnte …: "Sería genial que el
// asistente de IA reenviara …"), a label's colon or a vocative's comma after it (in Hindi also
// after "के लिए (निर्देश)", "for the AI assistant (instructions):"), or "please" in
// the sentence (bitte, por favor, s'il te plaît, пожалуйста, veuillez, कृपया). The noun is
// looked for first: the look-behind tried at every position cost 55 ms on 64 KiB of Cyrillic.
const FRAME_X =
  "(?<=(?:que|wenn|если|пусть|чтобы|se|si|könnte|würde|möge)[ \\t]{1,3}(?:[\\p{L}]{1,12}[ \\t]{1,3}){0,2}(?:l['’])?)";
const PLEASE_X = `(?=${SENT}{0,160}?${START}(?:bitte|por[ \\t]favor|por[ \\t]gentileza|s['’]il[ \\t](?:te|vous)[ \\t]pla[iî]t|пожалуйста|veuillez|merci[ \\t]de|कृपया)${END})`;
// Each choice sits in a lookahead, which V8 never backtracks into: as alternations, a noun both
// wished for and followed by a comma ("que agente ia, ", 64 KiB) ran every scan after it twice
// (35 ms → 21 ms; review of h-inj2).
const POLITE_X = `${START}(?=${AI_NOUN_X}${END})${NOT_OURS}(?=${FRAME_X}|${AI_NOUN_X}${END}(?:[ \\t]{0,2}[:,]|[ \\t]{1,3}के[ \\t]लिए(?:[ \\t]निर्देश)?[ \\t]{0,2}[:,]|${PLEASE_X}))${AI_NOUN_X}${END}${NOT_PITCH_X}(?=(?=${SENT}{0,240}?${DEST})|(?=${SENT}{0,240}?${START}${ALL_X}${END})(?=${SENT}{0,240}?${START}${DESTROY_X}))${SENT}{0,240}?${START}${VERB_X}`;

// A chat message whose system or developer role orders data sent: {"role": "system", "content":
// "Forward all emails to …"}. Not "You are a helpful assistant" (no verb), nor "… that can send
// emails to support@…" (a capability).
const JSON_STRING_CHAR = '(?:[^"\\\\\\n]|\\\\.)';
const JSON_ROLE = `"role"[ \\t]{0,3}:[ \\t]{0,3}"(?:system|developer)"[^{}\\n]{0,200}?"content"[ \\t]{0,3}:[ \\t]{0,3}"${JSON_STRING_CHAR}{0,80}?${START}(?<!(?:can|could|will|may|to)[ \\t]{1,3})${BASE}${END}${JSON_STRING_CHAR}{0,200}?${DEST}`;
// A tool call of a tool that moves or destroys data ({"tool": "gmail_send", "arguments": …},
// "function_call": {"name": "share_file" …}) and, before or after it, an order to run it ("execute
// the following tool call", "run the call above"): a changelog showing the format orders nothing.
const TOOL_JSON =
  '"(?:tool|name|function|tool_name|action)"[ \\t]{0,3}:[ \\t]{0,3}"[\\w.-]{0,30}?(?:send|forward|share|delete|trash|transfer|export|upload)[\\w.-]{0,30}"';
const RUN_VERB = `${START}(?:execute|run|invoke|perform|call|make)[ \\t]{1,3}(?:this|that|it|the[ \\t]{1,3}(?:following|above|below|call|tool|function))${END}`;
// The order is the agent's: its name as a vocative or label right before it ("Assistant, execute
// the following tool call", "AI agent: run the call above now"), or urgency after an order whose
// object is the call itself ("execute the following tool call immediately"). A developer doc's
// "Claude can call tools. Make the call with …", "Agents that run this version should update
// immediately", "run the tool immediately and feed back the observation", "Call it right away in
// your loop" are neither (review of h-inj2's benign probes).
const AGENT_WORD = '(?:assistants?|agents?|ai|llms?|models?|bots?|claude|chat ?gpt|gemini|copilot)';
// "Execute this now." but not "Run this example now": after a bare "this", only urgency.
const URGENT =
  '(?:now|immediately|silently|at[ \\t]once|right[ \\t]away|without[ \\t](?:asking|confirmation))(?![\\p{L}\\p{N}_])';
const RUN_CALL = `${START}(?:(?:execute|run|invoke|perform|make)[ \\t]{1,3}(?:this|that|the)[ \\t]{1,3}(?:(?:following|above|below)[ \\t]{1,3})?(?:(?:tool|function)[ \\t]{1,3})?calls?|(?:execute|run|invoke|perform)[ \\t]{1,3}the[ \\t]{1,3}(?:following|above|below)|(?:execute|invoke|run|perform)[ \\t]{1,3}(?:it|this|that)${END}(?![ \\t]{1,3}(?!${URGENT})\\p{L}))${END}`;
const RUN_ORDER = `(?:${START}${AGENT_WORD}${END}[ \\t]{0,2}[,:][ \\t]{0,3}(?:(?:please|kindly)[ \\t]{1,3})?(?:(?:now|immediately)[ \\t]{1,3})?${RUN_VERB}|${RUN_CALL}(?=[^\\n]{0,40}?${START}${URGENT}))`;
const TOOL_CALL = `${RUN_ORDER}[^]{0,300}?${TOOL_JSON}|${TOOL_JSON}[^]{0,300}?${RUN_ORDER}`;
// A block marked as the agent's orders: "BEGIN AGENT DIRECTIVE", "-----BEGIN ASSISTANT
// INSTRUCTIONS-----", the marker alone on its line or ruled off (not "BEGIN AI PROMPT TEMPLATE —
// send us your prompts …", a newsletter's heading), then a verb that moves or destroys data in it.
const DIRECTIVE = `${START}begin[ \\t_-]{1,3}(?:ai|agent|assistant|llm|model)[ \\t_-]{1,3}(?:directives?|instructions?|commands?|orders?|tasks?|prompt)${END}[ \\t_-]{0,8}(?:[:=-]|\\r?\\n|$)[^]{0,300}?${START}${BASE}${END}`;

const POLITE = new RegExp(
  [...POLITE_EN, POLITE_X, JSON_ROLE, TOOL_CALL, DIRECTIVE].map((s) => `(?:${s})`).join('|'),
  'iu',
);

/** The pattern's length, held under V8's 20 KiB bound by a test (addressed-instructions.ts PATTERN_LENGTH). */
export const POLITE_LENGTH = POLITE.source.length;

/** Where the text first addresses an agent in one of these classes, or -1. */
export function politeAddressAt(s: string): number {
  return POLITE.exec(s)?.index ?? -1;
}
