/**
 * The agent's readable core memory: a summary of what was learned (statistics, glossary of frequent words, affix
 * patterns) and the owner's notes kept verbatim beside it.
 */
import { lexEntries } from './lexicon';
import type { AgentModel } from './model';
import { joinPhrase } from './subword';
import { isWordToken } from './tokenize';
import { FIRST_WORD_ID } from './vocabulary';

/** Glossary lines of the summary (most frequent words first), words shorter than this skipped. */
const SUMMARY_ENTRIES = 40;
const SUMMARY_MIN_WORD_LENGTH = 3;
/** Translations shown per word, each at least this probable. */
const SUMMARY_TRANSLATIONS = 3;
const SUMMARY_MIN_PROB = 0.05;
/** Affix patterns shown. */
const SUMMARY_AFFIXES = 15;

export function summarizeCoreMemory(m: AgentModel, opts?: { srcLang?: string; tgtLang?: string; entries?: number }): string {
  const src = opts?.srcLang ?? 'source';
  const tgt = opts?.tgtLang ?? 'target';
  const n = opts?.entries ?? SUMMARY_ENTRIES;
  const s = m.stats;
  const lines: string[] = [];
  lines.push(`# Learned core memory (${src} → ${tgt})`);
  lines.push('');
  lines.push(`## Statistics`);
  lines.push(`- ${s.pairs} sentence pairs; ${s.srcTokens} ${src} tokens, ${s.tgtTokens} ${tgt} tokens`);
  lines.push(`- vocabulary: ${s.srcVocab} ${src} words, ${s.tgtVocab} ${tgt} words`);
  lines.push(
    `- length: ${tgt} text is ${s.charRatioCorpus.toFixed(2)}× the characters of ${src} text (mean per pair ${s.charRatioMean.toFixed(2)}), ${s.tokenRatioCorpus.toFixed(2)}× the tokens`,
  );
  lines.push(`- ${s.phrasePairs} phrase pairs extracted; learned in ${s.trainSeconds.toFixed(1)} s`);
  lines.push('');
  lines.push(`## Glossary (${src} → ${tgt}, most frequent words, p(translation | word))`);
  const vs = m.sides[0];
  let shown = 0;
  for (let id = FIRST_WORD_ID; id < vs.words.length && shown < n; id++) {
    const w = vs.words[id];
    if (!isWordToken(w) || Array.from(w).length < SUMMARY_MIN_WORD_LENGTH) continue;
    const es = lexEntries(m, 0, id)
      .filter((e) => e.word && isWordToken(e.word) && e.prob >= SUMMARY_MIN_PROB)
      .slice(0, SUMMARY_TRANSLATIONS);
    if (!es.length) continue;
    lines.push(`- ${w} → ${es.map((e) => `${joinPhrase(e.word)} (${e.prob.toFixed(2)})`).join(', ')}`);
    shown++;
  }
  lines.push('');
  lines.push(`## Affix patterns (${src} word ↔ ${tgt} suffix)`);
  for (const a of m.affixes[0].slice(0, SUMMARY_AFFIXES)) lines.push(`- "${a.source}" ↔ -${a.suffix} (${a.count}×, lift ${a.lift.toFixed(1)})`);
  if (!m.affixes[0].length) lines.push('- (none frequent enough yet)');
  return lines.join('\n');
}

export const OWNER_NOTES_HEADING = '## Owner notes';
const LEARNED_MARK = '<!-- learned core memory: regenerated from the pairs, edit the owner notes above instead -->';

/** Joins the owner's notes (kept verbatim) and a freshly learned summary into one core_memory text. */
export function composeCoreMemory(learnedSummary: string, ownerNotes?: string | null): string {
  const notes = (ownerNotes ?? '').trim();
  return (notes ? `${OWNER_NOTES_HEADING}\n\n${notes}\n\n` : '') + `${LEARNED_MARK}\n${learnedSummary.trim()}\n`;
}

/** Splits a core_memory text back into the owner's notes and the learned part (text without a marker is all notes). */
export function splitCoreMemory(text: string): { ownerNotes: string; learned: string } {
  const i = text.indexOf(LEARNED_MARK);
  if (i < 0) return { ownerNotes: text.trim(), learned: '' };
  let notes = text.slice(0, i).trim();
  if (notes.startsWith(OWNER_NOTES_HEADING)) notes = notes.slice(OWNER_NOTES_HEADING.length).trim();
  return { ownerNotes: notes, learned: text.slice(i + LEARNED_MARK.length).trim() };
}
