import type { AppliedTerm } from '@gaia/contracts';
import type { ChatMessage } from './llm-client';

/** A glossary entry oriented in the request's direction: `term` (input language) must come out as `translation`. */
export interface GlossaryEntry {
  term: string;
  translation: string;
  caseSensitive: boolean;
}

/** An owner's correction oriented in the request's direction (the ephemeral memory's caller-supplied examples). */
export interface FeedbackExample {
  id: string;
  source: string;
  target: string;
}

/** The owner's feedback that applies to one request: the nearest corrections and the glossary terms in the text. */
export interface RequestFeedback {
  examples: FeedbackExample[];
  glossary: GlossaryEntry[];
}

export const NO_FEEDBACK: RequestFeedback = { examples: [], glossary: [] };

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
/** A whole-word occurrence of `phrase` (letters and digits of any script delimit words). */
const wordPattern = (phrase: string, caseSensitive: boolean): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${escape(phrase.normalize('NFC').trim()).replace(/\s+/gu, '\\s+')}(?![\\p{L}\\p{N}\\p{M}])`, caseSensitive ? 'u' : 'iu');

/** The glossary entries whose term occurs in the text (whole words), longest first, with the term as the text writes it. */
export function matchGlossary(text: string, glossary: readonly GlossaryEntry[]): GlossaryEntry[] {
  const input = text.normalize('NFC');
  const out: GlossaryEntry[] = [];
  for (const g of [...glossary].sort((a, b) => b.term.length - a.term.length)) {
    const m = wordPattern(g.term, g.caseSensitive).exec(input);
    if (m) out.push({ ...g, term: m[0] });
  }
  return out;
}

/** Whether a translation holds an entry's required translation (whole words; letter case ignored unless case-sensitive). */
export function holdsTranslation(output: string, entry: GlossaryEntry): boolean {
  return wordPattern(entry.translation, entry.caseSensitive).test(output.normalize('NFC'));
}

/** Splits the matched entries into those the output honours (`applied`, wire shape) and those it misses. */
export function checkGlossary(output: string, matched: readonly GlossaryEntry[]): { applied: AppliedTerm[]; missing: GlossaryEntry[] } {
  const applied: AppliedTerm[] = [];
  const missing: GlossaryEntry[] = [];
  for (const g of matched) {
    if (holdsTranslation(output, g)) applied.push({ term: g.term, translation: g.translation });
    else missing.push(g);
  }
  return { applied, missing };
}

const words = (s: string): string[] =>
  s
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}'’]+/u)
    .filter(Boolean);
/** Normalised form for the identical-request test: words only, lower-cased. */
export const sameText = (a: string, b: string): boolean => words(a).join(' ') === words(b).join(' ');

/** The correction whose source is the text itself (words, ignoring case and punctuation), newest first. */
export function exactExample(text: string, examples: readonly FeedbackExample[]): FeedbackExample | null {
  return examples.find((e) => sameText(e.source, text)) ?? null;
}

/**
 * The `n` corrections nearest to the text by word overlap (Dice coefficient over distinct words), an identical
 * one first; corrections sharing no word are left out. Cheap enough to run over an agent's every correction.
 */
export function nearestExamples(text: string, examples: readonly FeedbackExample[], n: number): FeedbackExample[] {
  const q = new Set(words(text));
  if (q.size === 0) return [];
  const scored: { e: FeedbackExample; score: number; i: number }[] = [];
  examples.forEach((e, i) => {
    const s = new Set(words(e.source));
    let shared = 0;
    for (const w of s) if (q.has(w)) shared++;
    if (shared > 0) scored.push({ e, score: (2 * shared) / (s.size + q.size), i });
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.slice(0, n).map((s) => s.e);
}

const oneLine = (s: string): string => s.replace(/\s+/gu, ' ').trim();

/**
 * The prompt part of the owner's feedback: the required terminology (glossary terms found in the text) and the
 * owner's corrections nearest to it, each block only when it has entries; '' when there is none.
 */
export function glossaryBlock(ctx: { from: string; to: string; glossary?: readonly GlossaryEntry[]; corrections?: readonly FeedbackExample[] }): string {
  const parts: string[] = [];
  if (ctx.glossary?.length) {
    parts.push(
      `Required terminology (the agent owner's glossary): translate each ${ctx.from} term with exactly the ${ctx.to} term given, inflected only where ${ctx.to} grammar demands:\n` +
        ctx.glossary.map((g) => `- ${oneLine(g.term)} → ${oneLine(g.translation)}`).join('\n'),
    );
  }
  if (ctx.corrections?.length) {
    parts.push(
      `Corrections by the agent owner (verified translations; follow them over any other evidence):\n` +
        ctx.corrections.map((e, i) => `${i + 1}. ${ctx.from}: ${oneLine(e.source)}\n   ${ctx.to}: ${oneLine(e.target)}`).join('\n'),
    );
  }
  return parts.length ? `${parts.join('\n\n')}\n\n` : '';
}

/** Phase 3 (only when the refined translation misses a required term): one request to put the terms in. */
export function buildGlossaryRepairPrompt(
  ctx: { from: string; to: string; text: string },
  translation: string,
  missing: readonly GlossaryEntry[],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You correct a ${ctx.to} translation so that it uses the required terminology. Change only what is needed to use ` +
        `each required term; keep the rest as it is. Answer with the corrected translation only: no quotes, no explanations.`,
    },
    {
      role: 'user',
      content:
        `Source (${ctx.from}):\n<source>\n${ctx.text}\n</source>\n\nTranslation (${ctx.to}):\n${translation}\n\n` +
        `Required terms missing from the translation:\n${missing.map((g) => `- ${oneLine(g.term)} → ${oneLine(g.translation)}`).join('\n')}\n\nWrite the corrected ${ctx.to} translation.`,
    },
  ];
}
