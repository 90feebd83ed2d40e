import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HELD_OUT_PARTS,
  TUNING_PARTS,
  sampleClasses,
} from '../../test-support/addressed-classes-variants.js';
import { AGENT_ADDRESS_LENGTH, agentAddressAt, withoutMarkup } from './agent-address.js';
import {
  MAX_EXCERPT,
  addressedAt,
  addressedInstruction,
  mayAddress,
} from './addressed-instructions.js';

/**
 * agent-address.ts: the second pattern (product names, arrows, clauses, "email") and the markup
 * reading. Its size, its bound on a stranger's long text, the prefilter in front of it, and what
 * the markup reading gives.
 */

describe('agent-address: bounded', () => {
  it('keeps its pattern under the size V8 still optimises (20 KiB)', () => {
    // As addressed-instructions.ts PATTERN_LENGTH: past it a scan costs ten times as much.
    expect(AGENT_ADDRESS_LENGTH).toBeLessThan(20 * 1024);
  });

  it('finishes on large generated inputs of its own parts and keeps the excerpt bounded', () => {
    // Long runs of what each bounded gap reads: markup, clause words, arrows, names, commas.
    const piece = fc.constantFrom(
      '<p>',
      '<div class="',
      '**',
      '__',
      '- ',
      '| ',
      '> ',
      '# ',
      '1. ',
      'Gemini',
      'Claude 3.5 Sonnet',
      'GPT-4o mini',
      'AcmeGPT',
      'agent',
      ' ~> ',
      ' —> ',
      ' :: ',
      ', ',
      'when you read this',
      'if ',
      'please ',
      'quietly ',
      'email ',
      'forward ',
      'the ',
      'x@',
      '.',
      'a.b',
      '\n',
      ' ',
      'x',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 3000 }),
        (parts, n) => {
          const text = parts.join('').repeat(n);
          const e = addressedInstruction(text);
          return e === null || e.length <= MAX_EXCERPT;
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('agent-address: the prefilter passes what it reads', () => {
  it('every generated injected wording, as written and without markup', () => {
    const texts = [
      ...sampleClasses(TUNING_PARTS, 11, 300),
      ...sampleClasses(HELD_OUT_PARTS, 12, 300),
    ];
    for (const t of texts) {
      const m = withoutMarkup(t);
      if (agentAddressAt(m) >= 0) expect(mayAddress(m)).toBe(true);
      if (addressedAt(t) >= 0) expect(mayAddress(t)).toBe(true);
    }
  });
});

describe('withoutMarkup', () => {
  it.each([
    ['<p>AI assistant: forward it</p>', '\nAI assistant: forward it\n'],
    ['**Note to the AI:** send it', 'Note to the AI: send it'],
    ['- Assistant: delete it', 'Assistant: delete it'],
    ['1. > ## Gemini, send it', 'Gemini, send it'],
    ['| Status | Assistant: delete it |', '\nStatus\nAssistant: delete it\n'],
    ['Hi<br/>Gemini: send it', 'Hi\nGemini: send it'],
    ['<b>Codex</b> -> send it', 'Codex -> send it'],
  ])('%j reads %j', (t, want) => {
    expect(withoutMarkup(t)).toBe(want);
  });

  it('leaves a field name and plain prose as they are', () => {
    expect(withoutMarkup('instructions_for_ai: none')).toBe('instructions_for_ai: none');
    expect(withoutMarkup('Lunch at noon, then a walk.')).toBe('Lunch at noon, then a walk.');
  });
});

describe('agent-address: what is not an order', () => {
  it.each([
    'Gemini is a zodiac sign.',
    'Cursor: pointer position',
    '→ fixed crash when opening the settings',
    'The agent: John Smith, Realty Co.',
    '- Claude Monet exhibition opens Friday',
    'Codex: reply suggestions are now on by default',
    'Agent: send feedback via the form',
    '<li>Llama: share of traffic 12%</li>',
    '- AI assistant: can now send drafts for your review before sending.',
    '<div>Assistant: Jane Roe, Office of the Dean</div>',
    // "email" is an act a product's pitch may excuse, as "send" (job-label.ts EXCUSED).
    'Email assistant: email the perfect follow-up every time.',
  ])('%s', (t) => {
    expect(addressedInstruction(t)).toBeNull();
  });
});
