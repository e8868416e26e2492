/**
 * Phase 1, fuzzy-match repair: when a retrieved example's input side is a near duplicate of the input (token edit
 * distance ≤ FUZZY_MAX_DISTANCE of the longer side, at most FUZZY_MAX_SPANS differing spans), its translation is kept
 * and only the output aligned to each differing span is edited: the input's words of the span are translated (decoder)
 * and written where the example's words of the span were translated, example words the input lacks are removed with
 * their output, input words the example lacks are inserted after the output of the word before them. The example's
 * words and its translation are aligned through both lexicons (and identical tokens: names, numbers, punctuation).
 * A repair whose span is aligned to output that crosses the rest of the example (not one contiguous stretch) is not
 * made. Glossary terms always count as differing.
 */
import type { PhraseDecoder } from './decoder';
import type { ForcedSpan } from './glossary';
import type { AgentModel } from './model';
import { exampleTokens, type ExampleTokens } from './memory-adaptation';
import { FUZZY_ALIGN_MIN_PROB, FUZZY_MAX_DISTANCE, FUZZY_MAX_SPANS } from './tuning';
import { sentenceStarts } from './tokenize';
import type { RetrievalHit } from './types';

/** Tie-break of the alignment: links nearer the diagonal win among equally probable ones. */
const DIAGONAL_TIE_BREAK = 1e-3;

/** A differing span: input tokens [q, qe) take the place of example tokens [h, he). */
interface Span {
  q: number;
  qe: number;
  h: number;
  he: number;
}

/**
 * The differing spans of the input `q` and the example input `h` by token edit distance (matches at `locked` input
 * positions count as differences), and the distance; null when the distance exceeds `max`.
 */
export function differingSpans(q: readonly string[], h: readonly string[], max: number, locked?: Uint8Array): { spans: Span[]; distance: number } | null {
  const n = q.length;
  const m = h.length;
  if (Math.abs(n - m) > max) return null;
  const same = (i: number, j: number): boolean => q[i] === h[j] && !locked?.[i];
  const d = Array.from({ length: n + 1 }, (_, i) => {
    const r = new Int32Array(m + 1);
    r[0] = i;
    return r;
  });
  for (let j = 0; j <= m; j++) d[0][j] = j;
  for (let i = 1; i <= n; i++) {
    let rowMin = d[i][0];
    for (let j = 1; j <= m; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(i - 1, j - 1) ? 0 : 1));
      rowMin = Math.min(rowMin, d[i][j]);
    }
    if (rowMin > max) return null;
  }
  if (d[n][m] > max) return null;
  // backtrace, matches preferred: runs of edits between matches are the spans (collected right to left)
  const spans: Span[] = [];
  let i = n;
  let j = m;
  let open: Span | null = null;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && same(i - 1, j - 1) && d[i][j] === d[i - 1][j - 1]) {
      if (open) spans.push(open);
      open = null;
      i--;
      j--;
      continue;
    }
    if (!open) open = { q: i, qe: i, h: j, he: j };
    if (i > 0 && j > 0 && d[i][j] === d[i - 1][j - 1] + 1) {
      i--;
      j--;
    } else if (i > 0 && d[i][j] === d[i - 1][j] + 1) i--;
    else j--;
    open.q = i;
    open.h = j;
  }
  if (open) spans.push(open);
  return { spans: spans.reverse(), distance: d[n][m] };
}

/**
 * Links of the example's input tokens H to its output tokens O: each output token to its likeliest input token and each
 * input token to its likeliest output token (union), by max(p(o|h), p(h|o)) of the lexicons, identical tokens 1;
 * links below FUZZY_ALIGN_MIN_PROB are left out. Returns, per input token, its linked output positions.
 */
export function alignExample(model: AgentModel, H: readonly string[], O: readonly string[], dir: 0 | 1): number[][] {
  const inV = model.sides[dir];
  const outV = model.sides[dir === 0 ? 1 : 0];
  const score = H.map(() => new Float64Array(O.length));
  const outIds = O.map((w) => outV.index.get(w) ?? 0);
  const lexF = model.lex[dir];
  const lexR = model.lex[dir === 0 ? 1 : 0];
  H.forEach((hw, i) => {
    const id = inV.index.get(hw) ?? 0;
    const row = score[i];
    if (id > 0)
      for (let x = lexF.off[id]; x < lexF.off[id + 1]; x++)
        for (let j = 0; j < O.length; j++) if (outIds[j] === lexF.ids[x]) row[j] = Math.max(row[j], lexF.probs[x]);
    for (let j = 0; j < O.length; j++) {
      if (O[j] === hw) row[j] = 1;
      const oid = outIds[j];
      if (id > 0 && oid > 0) for (let x = lexR.off[oid]; x < lexR.off[oid + 1]; x++) if (lexR.ids[x] === id) row[j] = Math.max(row[j], lexR.probs[x]);
    }
  });
  const diag = (i: number, j: number): number => DIAGONAL_TIE_BREAK * Math.abs((i + 0.5) / H.length - (j + 0.5) / O.length);
  const links: Set<number>[] = H.map(() => new Set());
  for (let j = 0; j < O.length; j++) {
    let bi = -1;
    for (let i = 0; i < H.length; i++) if (score[i][j] >= FUZZY_ALIGN_MIN_PROB && (bi < 0 || score[i][j] - diag(i, j) > score[bi][j] - diag(bi, j))) bi = i;
    if (bi >= 0) links[bi].add(j);
  }
  for (let i = 0; i < H.length; i++) {
    let bj = -1;
    for (let j = 0; j < O.length; j++) if (score[i][j] >= FUZZY_ALIGN_MIN_PROB && (bj < 0 || score[i][j] - diag(i, j) > score[i][bj] - diag(i, bj))) bj = j;
    if (bj >= 0) links[i].add(bj);
  }
  return links.map((s) => [...s].sort((a, b) => a - b));
}

/**
 * The example's translation repaired for the input (`qTok` model tokens, `qSurf` as written), or null when the example
 * is not a near duplicate or a span cannot be placed (`example`: the hit's tokens when the caller has them already). `overlap`: 1 − the token edit distance over the longer side.
 */
export function repairFuzzyMatch(
  model: AgentModel,
  decoder: PhraseDecoder,
  qTok: string[],
  qSurf: string[],
  hit: RetrievalHit,
  dir: 0 | 1,
  forced: readonly ForcedSpan[] = [],
  example: ExampleTokens = exampleTokens(model, hit, dir),
): { tokens: string[]; overlap: number } | null {
  const { H, O } = example;
  if (!H.length || !qTok.length) return null;
  const longer = Math.max(qTok.length, H.length);
  const max = Math.floor(FUZZY_MAX_DISTANCE * longer);
  // the distance is at least the difference in length: most examples end here, before the distance table
  if (Math.abs(qTok.length - H.length) > max) return null;
  const locked = new Uint8Array(qTok.length);
  for (const f of forced) locked.fill(1, f.start, f.end);
  const diff = differingSpans(qTok, H, max, locked);
  if (!diff || diff.distance === 0 || diff.spans.length > FUZZY_MAX_SPANS) return null;
  if (!O.length) return null;
  const links = alignExample(model, H, O, dir);
  // each span becomes an edit of O: output positions [from, to) replaced by the span's translation
  const edits: { from: number; to: number; out: string[] }[] = [];
  // where a word of the input may be capitalized for its place alone (a span decoded below reads its part)
  const starts = sentenceStarts(qSurf);
  for (const s of diff.spans) {
    const target: number[] = [];
    for (let i = s.h; i < s.he; i++) target.push(...links[i]);
    let from: number;
    let to: number;
    if (target.length) {
      from = Math.min(...target);
      to = Math.max(...target) + 1;
      // the stretch may hold unlinked output words, never output of example words outside the span
      for (let j = from; j < to; j++) {
        if (links.some((js, i) => (i < s.h || i >= s.he) && js.includes(j))) return null;
      }
    } else {
      // an example word translated by nothing gives no place for the input's word; an inserted word goes after the output
      // of the nearest linked example word before it (or before that of the one after)
      if (s.he > s.h) return null;
      let at = -1;
      for (let i = s.h - 1; i >= 0 && at < 0; i--) if (links[i].length) at = links[i][links[i].length - 1] + 1;
      for (let i = s.he; i < H.length && at < 0; i++) if (links[i].length) at = links[i][0];
      if (at < 0) return null;
      from = at;
      to = at;
    }
    const segForced = forced.filter((f) => f.start >= s.q && f.end <= s.qe).map((f) => ({ ...f, start: f.start - s.q, end: f.end - s.q }));
    // the span is read as the part of the sentence it is: a name inside it is no sentence opener
    const out = s.qe > s.q ? (decoder.decode(qTok.slice(s.q, s.qe), qSurf.slice(s.q, s.qe), dir, 1, segForced, starts.slice(s.q, s.qe))[0]?.tokens ?? []) : [];
    edits.push({ from, to, out });
  }
  edits.sort((a, b) => a.from - b.from || a.to - b.to);
  for (let k = 1; k < edits.length; k++) if (edits[k].from < edits[k - 1].to) return null;
  const tokens: string[] = [];
  let j = 0;
  for (const e of edits) {
    tokens.push(...O.slice(j, e.from), ...e.out);
    j = e.to;
  }
  tokens.push(...O.slice(j));
  return { tokens, overlap: 1 - diff.distance / longer };
}
