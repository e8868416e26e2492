/**
 * Provenance of an answer: by default the example it came from (or the nearest ones) and the phrase entries the
 * decoder used; with `explain`, every example that shaped it (its own first, then those that gave candidates or read
 * like the answer) with its origin, the phrase / lexicon entries with their probabilities, and the glossary terms.
 */
import type { CandidateOrigin } from './candidates';
import { lookupLexicon } from './lexicon';
import { charNgramCounts, chrfFromStats, chrfStatsFromCounts } from './metrics';
import type { AgentModel } from './model';
import { PHRASE_SCORE, PHRASE_SCORES_PER_OPTION } from './phrase-table';
import type { ForcedSpan } from './glossary';
import { isWordToken } from './tokenize';
import { EXPLAIN_MIN_LIKENESS, MIN_LEX_PROB, PROVENANCE_EXAMPLES, PROVENANCE_MAX_ENTRIES } from './tuning';
import type { AppliedTerm, Candidate, Direction, LexiconUse, Provenance, ProvenanceExample, RetrievalHit } from './types';
import { modelTokens } from './vocabulary';

/** What provenance needs of a translated line. */
export interface ExplainedLine {
  text: string;
  dir: 0 | 1;
  qTok: string[];
  hits: RetrievalHit[];
  extraIds: Set<string>;
  forced: ForcedSpan[];
  candidates: Candidate[];
  origins: CandidateOrigin[];
}

/** The default provenance: the chosen candidate's example (else the nearest ones) and its phrase entries. */
export function basicProvenance(job: ExplainedLine, bi: number): Provenance {
  const origin = job.origins[bi];
  return {
    strategy: job.candidates[bi].strategy,
    examples: (origin.hit ? [origin.hit] : job.hits.slice(0, PROVENANCE_EXAMPLES)).map((h) => ({
      id: h.id,
      score: h.score,
      source: h.source,
      target: h.target,
    })),
    lexicon: origin.used.slice(0, PROVENANCE_MAX_ENTRIES),
  };
}

function sentenceChrFOf(hyp: Map<string, number>[], ref: Map<string, number>[]): number {
  return chrfFromStats(chrfStatsFromCounts(hyp, ref));
}

/** With `explain`: the examples behind the candidates (the chosen one's first), the entries used, the glossary. */
export function explainProvenance(model: AgentModel, job: ExplainedLine, bi: number, applied: AppliedTerm[]): Provenance {
  const { dir, hits } = job;
  const best = job.candidates[bi];
  const origin = job.origins[bi];
  // the chosen candidate's example, then the examples that gave candidates or read like the answer, closest first
  const answer = charNgramCounts(best.text);
  const likeness = (h: RetrievalHit): number => sentenceChrFOf(charNgramCounts(dir === 0 ? h.target : h.source), answer);
  const candidateHits = new Set(job.origins.map((o) => o.hit));
  const ranked = hits
    .map((h) => ({ h, like: likeness(h) }))
    .filter((x) => candidateHits.has(x.h) || x.like >= EXPLAIN_MIN_LIKENESS)
    .sort((a, b) => b.like - a.like)
    .map((x) => x.h);
  const shaping = [origin.hit, ...ranked].filter((h): h is RetrievalHit => !!h);
  const seenEx = new Set<string>();
  const examples: ProvenanceExample[] = [];
  for (const h of shaping.length ? shaping : hits.slice(0, PROVENANCE_EXAMPLES)) {
    if (seenEx.has(h.id)) continue;
    seenEx.add(h.id);
    examples.push({ id: h.id, score: h.score, source: h.source, target: h.target, origin: job.extraIds.has(h.id) ? 'extra' : 'memory' });
  }
  const forcedKeys = new Set(job.forced.map((f) => job.qTok.slice(f.start, f.end).join(' ')));
  const outWords = new Set(modelTokens(best.text));
  const direction: Direction = dir === 0 ? 'forward' : 'reverse';
  const entries = [
    ...origin.used.filter((u) => !forcedKeys.has(u.source)).map((u) => ({ ...u, prob: entryProb(model, u.source, u.target, dir) })),
    ...lookupLexicon(model, job.text, direction).filter(
      (e) => e.prob >= MIN_LEX_PROB && isWordToken(e.source) && !forcedKeys.has(e.source) && modelTokens(e.target).every((w) => outWords.has(w)),
    ),
  ];
  const seenEntry = new Set<string>();
  const lexicon: LexiconUse[] = [];
  for (const e of entries) {
    const key = `${e.source}\t${e.target}`;
    if (e.prob <= 0 || seenEntry.has(key) || lexicon.length >= PROVENANCE_MAX_ENTRIES) continue;
    seenEntry.add(key);
    lexicon.push(e);
  }
  return { strategy: best.strategy, examples, lexicon, glossary: applied };
}

/** φ(t|s) of a phrase-table entry, else p(t|s) of a lexicon entry, else 0 (a copy or a back-off guess). */
function entryProb(m: AgentModel, source: string, target: string, dir: 0 | 1): number {
  const tab = m.tables[dir];
  const outV = m.sides[dir === 0 ? 1 : 0];
  const k = tab.keyIndex.get(source);
  const opts = k === undefined ? null : tab.options(k);
  if (opts)
    for (let o = opts.from; o < opts.to; o++) {
      const words = Array.from(opts.tgtIds.subarray(opts.tgtOff[o], opts.tgtOff[o + 1]), (id) => outV.words[id]).join(' ');
      if (words === target) return Math.exp(opts.scores[PHRASE_SCORES_PER_OPTION * o + PHRASE_SCORE.phiF]);
    }
  const id = m.sides[dir].index.get(source) ?? 0;
  const lex = m.lex[dir];
  if (id > 0) for (let x = lex.off[id]; x < lex.off[id + 1]; x++) if (lex.ids[x] !== 0 && outV.words[lex.ids[x]] === target) return lex.probs[x];
  return 0;
}
