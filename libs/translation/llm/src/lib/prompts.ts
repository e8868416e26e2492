import type { EngineKind } from '@gaia/contracts';
import type { ChatMessage } from './llm-client';
import type { LexiconEntry, RetrievedExample } from './translation-engine.port';
import { glossaryBlock, type FeedbackExample, type GlossaryEntry } from './glossary';

export interface PromptContext {
  from: string;
  to: string;
  text: string;
  learnedSummary: string;
  ownerNotes: string;
  customPrompt: string;
  examples: RetrievedExample[];
  lexicon: LexiconEntry[];
  /** Glossary terms found in the text: their translations are required (issue 14). */
  glossary?: GlossaryEntry[];
  /** The owner's corrections nearest to the text (verified translations). */
  corrections?: FeedbackExample[];
}

export interface Candidate {
  text: string;
  origin: EngineKind;
}

function coreMemoryBlock(ctx: PromptContext): string {
  const parts: string[] = [];
  if (ctx.customPrompt.trim()) parts.push(`Agent description: ${ctx.customPrompt.trim()}`);
  parts.push(`Core memory (learned from the agent's parallel data):\n${ctx.learnedSummary.trim() || '(none)'}`);
  parts.push(`Owner notes:\n${ctx.ownerNotes.trim() || '(none)'}`);
  return parts.join('\n\n');
}

function evidenceBlock(ctx: PromptContext): string {
  const examples = ctx.examples.length
    ? ctx.examples.map((e, i) => `${i + 1}. ${ctx.from}: ${oneLine(e.source)}\n   ${ctx.to}: ${oneLine(e.target)}`).join('\n')
    : '(no similar examples found)';
  const lexicon = ctx.lexicon.length
    ? ctx.lexicon.map((l) => `- ${oneLine(l.term)} → ${l.translations.map(oneLine).join('; ')}`).join('\n')
    : '(no lexicon entries match the input)';
  return `${glossaryBlock(ctx)}Retrieved example pairs (most similar first):\n${examples}\n\nLexicon entries matching the input:\n${lexicon}`;
}

/** Phase 1: generate a candidate translation (asked K times through `n` or sampling). */
export function buildCandidatePrompt(ctx: PromptContext): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You are a translation agent from ${ctx.from} to ${ctx.to}. These may be low-resource languages: ` +
        `follow the vocabulary, spelling and word order shown in the agent's memory, examples and lexicon ` +
        `rather than your own assumptions. Answer with the translation only: no quotes, no notes, no explanations.\n\n` +
        coreMemoryBlock(ctx),
    },
    {
      role: 'user',
      content: `${evidenceBlock(ctx)}\n\nTranslate from ${ctx.from} to ${ctx.to}:\n<source>\n${ctx.text}\n</source>`,
    },
  ];
}

/** Phase 2: validate the candidates against the evidence and write one final translation (streamed). */
export function buildRefinePrompt(ctx: PromptContext, candidates: Candidate[]): ChatMessage[] {
  const list = candidates.length
    ? candidates.map((c, i) => `${i + 1}. [${c.origin === 'llm' ? 'sampled' : 'built-in engine draft'}] ${oneLine(c.text)}`).join('\n')
    : '(no candidates)';
  return [
    {
      role: 'system',
      content:
        `You validate and refine translations from ${ctx.from} to ${ctx.to}. Compare the candidates with the ` +
        `source, the retrieved examples and the lexicon; keep what the evidence supports, fix words or grammar ` +
        `that contradict it, and do not add content absent from the source. Answer with the single final ` +
        `translation only: no quotes, no numbering, no explanations.\n\n` +
        coreMemoryBlock(ctx),
    },
    {
      role: 'user',
      content:
        `${evidenceBlock(ctx)}\n\nSource (${ctx.from}):\n<source>\n${ctx.text}\n</source>\n\n` +
        `Candidate translations (${ctx.to}):\n${list}\n\nWrite the final ${ctx.to} translation.`,
    },
  ];
}

/** Cleans a model answer: first non-empty line unless multi-line source, no wrapping quotes or labels. */
export function cleanTranslation(raw: string, keepLines = false): string {
  let text = raw.replace(/<\/?source>/g, '').trim();
  if (!keepLines)
    text =
      text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .find((l) => l.length > 0) ?? '';
  text = text.replace(/^(final translation|translation|traducción|candidate)\s*(\d+)?\s*[:：]\s*/i, '');
  text = text.replace(/^\d+\.\s+(?=\S)/, '');
  const quotes: Array<[string, string]> = [
    ['"', '"'],
    ['“', '”'],
    ["'", "'"],
    ['«', '»'],
    ['`', '`'],
  ];
  for (const [open, close] of quotes) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) text = text.slice(open.length, -close.length).trim();
  }
  return text.trim();
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
