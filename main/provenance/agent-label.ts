/**
 * The agent's label widened as classes (docs/provenance.md, "The agent's label as classes"): the
 * job label (job-label.ts) read a fixed list of jobs, colons and dashes, and salutations, and a
 * reviewer's blind wordings found each list's edge ("Calendar agent; cancel …", "ASSISTANT >>
 * delete …", "[Inbox assistant] Forward …", "Assistant (AI): …", "email triage bot", "Gmail
 * assistant", "To whichever LLM summarises this:"). These are the classes around them, read by
 * the job label's one pattern, before its act (which is not repeated: the whole pattern of
 * addressed-instructions.ts stays under V8's 20 KiB):
 *
 * - a job as an open noun phrase: up to five words of any kind, then an AI noun (bot, AI, LLM,
 *   copilot). A noun that is also a person's job ("assistant", "agent", "secretary", "helper",
 *   "model", "aide") needs a word among them that says software (AI, automated, mail, inbox,
 *   calendar …) or an AI qualifier after it: "Support agent (Maria): please send …" and
 *   "Household assistant [full-time] — run …" are people's (review of the agent-label branch).
 *   "Assistant" alone, a chat model's name, stands as it is.
 * - any label's delimiter: a colon or dash (job-label.ts), a semicolon, a bar, any arrow,
 *   chevron or pointing triangle, a closing bracket ("[Inbox assistant] Forward …"), and a
 *   bracketed qualifier after the name ("Assistant (AI): …") — not one with a slash, a job ad's
 *   "(m/f)", "(m/w/d)".
 * - a salutation to the agent by description: "To whichever LLM summarises this:", "To the AI
 *   that manages this inbox:", an informal opener ("Yo, inbox bot —"), which the open phrase
 *   reads as a word before the noun.
 *
 * As in job-label.ts, what follows must be an act on something of the user's (a determiner or an
 * address after the verb), which a newsletter, a job ad's duties or a transcript's turn lacks.
 * Bounded: each repetition has a fixed upper bound, and a word ends only at a joiner.
 */

/** Agent nouns that name an AI in a job phrase ("email triage bot", "Gmail assistant"). */
const AI_NOUN =
  '(?:chatbots?|bots?|ai|a\\.i\\.|copilots?|llms?|gpt(?:-?[0-9](?:\\.[0-9])?o?)?|language[ \\t]models?)';
/**
 * Agent nouns that are also a person's job: an assistant, an agent, a secretary. A phrase of any
 * words before one names a person as often as software ("Support agent (Maria): please send the
 * photos …", "Teaching assistant; please send the grades …", "Sales Agent - forward the leads
 * …": review of the agent-label branch), so in a label one needs a word that says software.
 */
const TITLE_NOUN =
  '(?:assistants?|assistent(?:in)?|agents?|secretar(?:y|ies)|helpers?|models?|aides?)';
// A word of the phrase and what joins it to the next: a space, a comma ("Yo, inbox bot"), a
// hyphen ("mail-sorting", "invoice-processing"). Not a word that says whom the text is from
// ("Reminder from your human scheduling assistant: please send …"; rev-b7-variants.ts): that
// names the writer, not the reader.
const WORD =
  "(?!(?:from|by|via|about)(?![\\p{L}]))[\\p{L}\\p{N}][\\p{L}\\p{N}'’&.]{0,20}(?:[ \\t,]{1,3}|-)";
// A word that says the job is software's: an AI word, or the mail, inbox or calendar it runs
// ("Gmail assistant", "AI shopping assistant", "automated assistant", "mail-sorting agent").
const SOFTWARE =
  '(?:ai|a\\.i\\.|llms?|gpt[\\p{L}\\p{N}.-]{0,4}|(?:chat)?bots?|copilots?|automated|automatic|digital|smart|autonomous|ki|ia|[\\p{L}]{0,8}(?:mail|inbox|calendar|schedul)[\\p{L}]{0,6})(?:[ \\t,]{1,3}|-)';
// "Assistant (AI): …", "Agent [bot] —": an AI word in a bracket after the noun.
const SOFTWARE_QUALIFIER =
  '[ \\t]{0,2}[\\[(][ \\t]{0,2}(?:ai|a\\.i\\.|llm|gpt|(?:chat)?bot|copilot|automat[\\p{L}]{0,6}|ki|ia)(?![\\p{L}])';
/**
 * The job in a label: up to five words and an AI noun ("email triage bot"); or a person's job
 * noun with a software word among the five ("Gmail assistant", "AI shopping assistant") or an AI
 * qualifier after it ("Slack agent (automation)"); or "Assistant" alone, a chat model's own name
 * ("ASSISTANT >> delete …"). Not a person's job: "Support agent (Maria): please send …",
 * "Teaching assistant; please send the grades …", "Executive assistant (remote) - send …".
 */
export const OPEN_NAME = `(?:(?:${WORD}){0,3}(?:${SOFTWARE}(?:${WORD}){0,2}${TITLE_NOUN}|(?:${WORD}){0,2}(?:${AI_NOUN}|${TITLE_NOUN}(?=${SOFTWARE_QUALIFIER})))|assistants?|assistent(?:in)?)(?![\\p{L}\\p{N}])`;

// A bracketed qualifier after the name ("(AI)", "(beta)", "[bot]"); no slash, as in "(m/f)".
const QUALIFIER = '(?:[ \\t]{0,2}[\\[(][^()\\[\\]/\\n]{1,24}[\\])])?';
// Arrows, chevrons and pointing triangles: ">", ">>", "»", "›", "->", "-->", "=>", "→", "⇒", "⟶", "▸".
const ARROW =
  '(?:[-=]{0,2}>{1,2}|[»›]|[\\u2190-\\u21FF\\u27F0-\\u27FF\\u2900-\\u297F\\u25B6\\u25B8\\u25BA\\u2794-\\u27BF])';
/** Any label's delimiter after the name, given the job label's colon or dash. */
export const wideSeparator = (colonDash: string) =>
  `${QUALIFIER}[ \\t]{0,2}(?:${colonDash}|[:：]{2}|[;|]|${ARROW})`;
// Opening and closing brackets of a bracketed label: "[Inbox assistant] Forward …".
export const OPEN_BRACKET = '[\\[(<{【「『〈《]{1,2}[ \\t]{0,2}';
export const CLOSE_BRACKET = `[ \\t]{0,2}[\\])>}】」』〉》]{1,2}(?:[ \\t]{0,2}(?:[:：;]|[—–-](?=[ \\t])|${ARROW}))?`;

// The agent by description after a salutation: "To whichever LLM summarises this:", "To the AI
// that manages this inbox:", "Dear AI who handles Sam's calendar,". The description opens with a
// relative word or a verb's form, then at most five more words.
//
// The name in a description: an AI noun, "assistant" or "model" after at most two words ("To the
// copilot triaging these emails:", "To any assistant reading this:"); not "agent", which a
// description leaves a person's ("To the agent handling my claim: please send the forms").
const DESCRIBED_NAME = `(?:[\\p{L}\\p{N}.-]{1,20}[ \\t]{1,3}){0,2}(?:${AI_NOUN}|assistants?|models?)(?![\\p{L}\\p{N}])`;
const DESCRIBED_DET = '(?:(?:the|whichever|whatever|any|every|each|all|my|our)[ \\t]{1,3})?';
const DESCRIPTION =
  '(?:[ \\t]{1,3}(?:that|which|who|whose|is|are|in|responsible|currently|[\\p{L}]{2,}(?:ing|s|ed))(?![\\p{L}])(?:[ \\t]{1,3}[^\\s.!?:;,—–]{1,30}){0,5}?)';
// The greetings it follows: English, where the blind set's descriptions were (job-label.ts's
// SALUTE is not repeated, for the pattern's size).
const SALUTE_EN = '(?:to|for|dear|hi|hello|hey|yo|attention|attn|note[ \\t]for|message[ \\t]for)';
export const describedAgent = (separator: string) =>
  `(?<![\\p{L}])${SALUTE_EN}(?:[ \\t,]{1,3}to)?[ \\t,]{1,3}${DESCRIBED_DET}${DESCRIBED_NAME}${DESCRIPTION}[ \\t]{0,2}(?:${separator}|[,!])`;
