/**
 * Core memory learned from the uploaded pairs: vocabularies, EM word alignment in both directions,
 * bilingual lexicons, phrase tables, Kneser-Ney language models for both sides, length statistics
 * and frequent affix correspondences. Serialized as one binary blob.
 */
import { AlignOptions, PairTable, trainAlignment } from './align';
import { ArtifactFormatError, ArtifactReader, ArtifactWriter } from './artifact-codec';
import { unpackLegacyBinary } from './legacy-binary';
import { KnLm } from './lm';
import { isWordToken, normalizeToken, tokenize } from './tokenize';
import type { ConfidenceCalibration, Direction, LexiconUse, ParallelPair } from './types';

export const MAX_PHRASE = 4;
const OPTIONS_PER_PHRASE = 12;
const ALIGN_MAX_LEN = 80;
const LM_MAX_V = 200000;

export interface SideVocab {
  words: string[]; // id -> word; 0 <unk>, 1 <s>, 2 </s>
  /** id -> preferred written form when it differs from the lower-cased word (proper names, acronyms), else '' */
  cased: string[];
  index: Map<string, number>;
  freq: Float32Array;
}

export interface PhraseTable {
  keys: string[];
  keyIndex: KeyLookup;
  off: Int32Array;
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  /** 4 per option: ln φ(t|s), ln φ(s|t), ln lex(t|s), ln lex(s|t) */
  scores: Float32Array;
  counts: Float32Array;
}

export interface LexEntry {
  word: string;
  prob: number;
}

export interface AffixPattern {
  source: string;
  suffix: string;
  count: number;
  lift: number;
}

export interface ModelStats {
  pairs: number;
  srcTokens: number;
  tgtTokens: number;
  srcVocab: number;
  tgtVocab: number;
  /** target chars / source chars (whitespace excluded) — mean over pairs, corpus ratio, std of log ratio */
  charRatioMean: number;
  charRatioCorpus: number;
  logCharRatioStd: number;
  tokenRatioCorpus: number;
  phrasePairs: number;
  trainSeconds: number;
}

export interface AgentModel {
  version: 1;
  sides: [SideVocab, SideVocab];
  /** [forward (source→target), reverse (target→source)] */
  tables: [PhraseTable, PhraseTable];
  /** language models over side 0 (source language) and side 1 (target language) */
  lms: [KnLm, KnLm];
  /** word lexicons: [p(t|s) keyed by source word id, p(s|t) keyed by target word id]; flat CSR */
  lex: [LexTable, LexTable];
  stats: ModelStats;
  affixes: [AffixPattern[], AffixPattern[]];
  /** confidence calibration per direction, fitted on held-out pairs at build (`fitConfidenceCalibration`) */
  calibration?: ModelCalibration;
}

export interface ModelCalibration {
  forward?: ConfidenceCalibration;
  reverse?: ConfidenceCalibration;
}

export interface LexTable {
  off: Int32Array; // per word id of the input side
  ids: Int32Array; // output side ids
  probs: Float32Array;
}

export function modelTokens(text: string): string[] {
  return tokenize(text).map(normalizeToken);
}

function buildVocab(sents: string[][], raw: string[][]): SideVocab {
  const cnt = new Map<string, number>();
  for (const s of sents) for (const w of s) cnt.set(w, (cnt.get(w) ?? 0) + 1);
  // case variants seen away from the sentence start
  const variants = new Map<string, Map<string, number>>();
  raw.forEach((r, k) => {
    for (let i = 1; i < r.length; i++) {
      const w = sents[k][i];
      const form = r[i].replace(/[’‘`´ʼꞌꞋ]/g, "'");
      let m = variants.get(w);
      if (!m) variants.set(w, (m = new Map()));
      m.set(form, (m.get(form) ?? 0) + 1);
    }
  });
  const sorted = [...cnt.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const words = ['<unk>', '<s>', '</s>', ...sorted.map((e) => e[0])];
  const freq = new Float32Array(words.length);
  sorted.forEach((e, i) => (freq[i + 3] = e[1]));
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  const cased = words.map((w) => {
    const m = variants.get(w);
    if (!m) return '';
    let best = w;
    let bc = -1;
    for (const [f, c] of m)
      if (c > bc || (c === bc && f === w)) {
        best = f;
        bc = c;
      }
    return best === w ? '' : best;
  });
  return { words, index, freq, cased };
}

function toIds(v: SideVocab, s: string[]): Int32Array {
  const out = new Int32Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = v.index.get(s[i]) ?? 0;
  return out;
}

function charLen(s: string): number {
  return Array.from(s.replace(/\s+/g, '')).length;
}

export function trainAgentModel(
  pairs: ParallelPair[],
  opts?: { onProgress?: (fraction: number, message: string) => void; iterations?: number; align?: AlignOptions },
): AgentModel {
  const t0 = Date.now();
  const progress = opts?.onProgress ?? (() => undefined);
  progress(0, 'tokenizing');
  const good = pairs.filter((p) => p.source.trim() && p.target.trim());
  const rawS = good.map((p) => tokenize(p.source));
  const rawT = good.map((p) => tokenize(p.target));
  const S = rawS.map((r) => r.map(normalizeToken));
  const T = rawT.map((r) => r.map(normalizeToken));
  const vs = buildVocab(S, rawS);
  const vt = buildVocab(T, rawT);
  const Sid = S.map((s) => toIds(vs, s));
  const Tid = T.map((t) => toIds(vt, t));

  progress(0.05, 'aligning words (EM, both directions)');
  const aS = Sid.map((s) => (s.length > ALIGN_MAX_LEN ? s.subarray(0, ALIGN_MAX_LEN) : s));
  const aT = Tid.map((t) => (t.length > ALIGN_MAX_LEN ? t.subarray(0, ALIGN_MAX_LEN) : t));
  const { model: am, links } = trainAlignment(aS, aT, vs.words.length, vt.words.length, { iterations: opts?.iterations ?? 4, ...(opts?.align ?? {}) }, (f) =>
    progress(0.05 + 0.5 * f, 'aligning words (EM, both directions)'),
  );

  progress(0.6, 'building lexicons');
  const lexF = buildLex(am.paramS, am.paramT, am.tF, vs.words.length, 0.01);
  const lexR = buildLex(am.paramT, am.paramS, am.tR, vt.words.length, 0.01);
  const tProb = (s: number, t: number, dir: 0 | 1): number => {
    const p = am.index.get(s, t);
    if (p === -1) return 1e-7;
    return dir === 0 ? am.tF[p] : am.tR[p];
  };

  progress(0.65, 'extracting phrase pairs');
  const ph = new PhraseCounts();
  for (let k = 0; k < aS.length; k++) extractPhrases(aS[k], aT[k], links[k], ph);

  progress(0.8, 'scoring phrase tables');
  const nS = ph.sKeys.length;
  const nT = ph.tKeys.length;
  const cS = new Float64Array(nS);
  const cT = new Float64Array(nT);
  const P = ph.count.length;
  for (let x = 0; x < P; x++) {
    cS[ph.ps[x]] += ph.count[x];
    cT[ph.pt[x]] += ph.count[x];
  }
  const sIdsOf = ph.sKeys.map((k) => k.split(' ').map(Number));
  const tIdsOf = ph.tKeys.map((k) => k.split(' ').map(Number));
  const phs = new Float32Array(P * 4);
  for (let x = 0; x < P; x++) {
    const c = ph.count[x];
    const si = ph.ps[x];
    const ti = ph.pt[x];
    phs[4 * x] = Math.log(c / cS[si]);
    phs[4 * x + 1] = Math.log(c / cT[ti]);
    phs[4 * x + 2] = lexWeight(sIdsOf[si], tIdsOf[ti], (a, b) => tProb(a, b, 0));
    phs[4 * x + 3] = lexWeight(tIdsOf[ti], sIdsOf[si], (a, b) => tProb(b, a, 1));
  }
  const fwd = packTable(ph.ps, ph.pt, ph.count, phs, nS, tIdsOf, false);
  const rev = packTable(ph.pt, ph.ps, ph.count, phs, nT, sIdsOf, true);
  // keys of a table are phrases in words of the input side
  fwd.keys = sIdsOf.map((ids) => ids.map((id) => vs.words[id]).join(' '));
  rev.keys = tIdsOf.map((ids) => ids.map((id) => vt.words[id]).join(' '));
  fwd.keyIndex = new Map(fwd.keys.map((k, i) => [k, i]));
  rev.keyIndex = new Map(rev.keys.map((k, i) => [k, i]));

  progress(0.88, 'training language models');
  const capIds = (x: Int32Array, V: number): Int32Array => (V <= LM_MAX_V ? x : x.map((id) => (id < LM_MAX_V ? id : 0)));
  const lmS = KnLm.train(
    Sid.map((x) => capIds(x, vs.words.length)),
    Math.min(vs.words.length, LM_MAX_V),
  );
  const lmT = KnLm.train(
    Tid.map((x) => capIds(x, vt.words.length)),
    Math.min(vt.words.length, LM_MAX_V),
  );

  progress(0.95, 'statistics and affixes');
  let sc = 0;
  let tc = 0;
  let st = 0;
  let tt = 0;
  let sumR = 0;
  const logs: number[] = [];
  good.forEach((p, k) => {
    const a = charLen(p.source);
    const b = charLen(p.target);
    sc += a;
    tc += b;
    st += S[k].length;
    tt += T[k].length;
    if (a > 0 && b > 0) {
      sumR += b / a;
      logs.push(Math.log(b / a));
    }
  });
  const mu = logs.reduce((x, y) => x + y, 0) / Math.max(1, logs.length);
  const sd = Math.sqrt(logs.reduce((x, y) => x + (y - mu) * (y - mu), 0) / Math.max(1, logs.length));
  const affF = affixes(aS, aT, links, vs, vt, false);
  const affR = affixes(aS, aT, links, vs, vt, true);
  const model: AgentModel = {
    version: 1,
    sides: [vs, vt],
    tables: [fwd, rev],
    lms: [lmS, lmT],
    lex: [lexF, lexR],
    affixes: [affF, affR],
    stats: {
      pairs: good.length,
      srcTokens: st,
      tgtTokens: tt,
      srcVocab: vs.words.length - 3,
      tgtVocab: vt.words.length - 3,
      charRatioMean: sumR / Math.max(1, logs.length),
      charRatioCorpus: sc > 0 ? tc / sc : 1,
      logCharRatioStd: sd,
      tokenRatioCorpus: st > 0 ? tt / st : 1,
      phrasePairs: P,
      trainSeconds: (Date.now() - t0) / 1000,
    },
  };
  progress(1, 'done');
  return model;
}

export async function trainAgentModelAsync(
  pairs: ParallelPair[],
  opts?: { onProgress?: (fraction: number, message: string) => void },
): Promise<AgentModel> {
  await new Promise((r) => setImmediate(r));
  return trainAgentModel(pairs, opts);
}

function buildLex(inP: Int32Array, outP: Int32Array, prob: Float32Array, Vin: number, min: number): LexTable {
  const lists: { o: number; p: number }[][] = Array.from({ length: Vin }, () => []);
  for (let p = 0; p < prob.length; p++) {
    if (prob[p] < min) continue;
    lists[inP[p]].push({ o: outP[p], p: prob[p] });
  }
  const off = new Int32Array(Vin + 1);
  const ids: number[] = [];
  const probs: number[] = [];
  for (let w = 0; w < Vin; w++) {
    off[w] = ids.length;
    const l = lists[w].sort((a, b) => b.p - a.p).slice(0, 10);
    for (const e of l) {
      ids.push(e.o);
      probs.push(e.p);
    }
  }
  off[Vin] = ids.length;
  return { off, ids: Int32Array.from(ids), probs: Float32Array.from(probs) };
}

/** ln of IBM1-style lexical weight of out given inp: Π_j (1/(|inp|+1)) Σ_i p(out_j | inp_i) (incl. NULL). */
function lexWeight(inp: number[], out: number[], p: (a: number, b: number) => number): number {
  let lp = 0;
  for (const o of out) {
    let s = p(0, o);
    for (const i of inp) s += p(i, o);
    lp += Math.log(s / (inp.length + 1));
  }
  return lp;
}

class PhraseCounts {
  sKeys: string[] = [];
  tKeys: string[] = [];
  private sId = new Map<string, number>();
  private tId = new Map<string, number>();
  private pairs = new PairTable(1 << 16);
  ps: number[] = [];
  pt: number[] = [];
  count: number[] = [];

  add(sk: string, tk: string): void {
    let s = this.sId.get(sk);
    if (s === undefined) {
      s = this.sKeys.length;
      this.sId.set(sk, s);
      this.sKeys.push(sk);
    }
    let t = this.tId.get(tk);
    if (t === undefined) {
      t = this.tKeys.length;
      this.tId.set(tk, t);
      this.tKeys.push(tk);
    }
    const x = this.pairs.get(s, t);
    if (x === -1) {
      this.pairs.set(s, t, this.count.length);
      this.ps.push(s);
      this.pt.push(t);
      this.count.push(1);
    } else this.count[x]++;
  }
}

function extractPhrases(S: Int32Array, T: Int32Array, links: Int32Array, out: PhraseCounts): void {
  const m = S.length;
  const n = T.length;
  if (!m || !n) return;
  const sStr = Array.from(S, String);
  const tStr = Array.from(T, String);
  const minI = new Int32Array(n).fill(1 << 30);
  const maxI = new Int32Array(n).fill(-1);
  const tAl = new Uint8Array(n);
  const sLinks: number[][] = Array.from({ length: m }, () => []);
  for (let x = 0; x < links.length; x += 2) {
    const i = links[x];
    const j = links[x + 1];
    sLinks[i].push(j);
    tAl[j] = 1;
    if (i < minI[j]) minI[j] = i;
    if (i > maxI[j]) maxI[j] = i;
  }
  for (let i1 = 0; i1 < m; i1++) {
    let j1 = n;
    let j2 = -1;
    for (let i2 = i1; i2 < Math.min(m, i1 + MAX_PHRASE); i2++) {
      for (const j of sLinks[i2]) {
        if (j < j1) j1 = j;
        if (j > j2) j2 = j;
      }
      if (j2 < 0) continue;
      if (j2 - j1 >= MAX_PHRASE) break;
      let ok = true;
      for (let j = j1; j <= j2 && ok; j++) if (tAl[j] && (minI[j] < i1 || maxI[j] > i2)) ok = false;
      if (!ok) continue;
      let sk = sStr[i1];
      for (let x = i1 + 1; x <= i2; x++) sk += ' ' + sStr[x];
      let e1 = 0;
      for (let a = j1; a >= 0 && (a === j1 || !tAl[a]) && e1 < 2; a--, e1++) {
        let e2 = 0;
        for (let b = j2; b < n && (b === j2 || !tAl[b]) && b - a < MAX_PHRASE && e2 < 2; b++, e2++) {
          let tk = tStr[a];
          for (let x = a + 1; x <= b; x++) tk += ' ' + tStr[x];
          out.add(sk, tk);
        }
      }
    }
  }
}

/** Groups phrase pairs by input phrase and keeps the best options per input phrase. */
function packTable(
  inP: number[],
  outP: number[],
  count: number[],
  sc: Float32Array,
  nIn: number,
  outIds: number[][],
  reverse: boolean,
): PhraseTable {
  const groups: number[][] = Array.from({ length: nIn }, () => []);
  for (let x = 0; x < inP.length; x++) groups[inP[x]].push(x);
  const f = (x: number, k: number): number => sc[4 * x + (reverse ? [1, 0, 3, 2][k] : k)];
  const off = new Int32Array(nIn + 1);
  const tgtOff: number[] = [];
  const tgtIds: number[] = [];
  const scores: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < nIn; i++) {
    off[i] = tgtOff.length;
    const g = groups[i].sort((a, b) => f(b, 0) + 0.5 * f(b, 2) - (f(a, 0) + 0.5 * f(a, 2))).slice(0, OPTIONS_PER_PHRASE);
    for (const x of g) {
      tgtOff.push(tgtIds.length);
      for (const id of outIds[outP[x]]) tgtIds.push(id);
      scores.push(f(x, 0), f(x, 1), f(x, 2), f(x, 3));
      counts.push(count[x]);
    }
  }
  off[nIn] = tgtOff.length;
  tgtOff.push(tgtIds.length);
  return {
    keys: [],
    keyIndex: new Map(),
    off,
    tgtOff: Int32Array.from(tgtOff),
    tgtIds: Int32Array.from(tgtIds),
    scores: Float32Array.from(scores),
    counts: Float32Array.from(counts),
  };
}

function suffixesOf(w: string): string[] {
  const ch = Array.from(w);
  const out: string[] = [];
  for (let n = 2; n <= 4; n++) if (ch.length >= n + 3) out.push(ch.slice(ch.length - n).join(''));
  return out;
}

function affixes(S: Int32Array[], T: Int32Array[], links: Int32Array[], vs: SideVocab, vt: SideVocab, reverse: boolean): AffixPattern[] {
  const inV = reverse ? vt : vs;
  const outV = reverse ? vs : vt;
  const pair = new Map<string, number>();
  const cw = new Map<number, number>();
  const csuf = new Map<string, number>();
  let total = 0;
  for (let k = 0; k < S.length; k++) {
    const L = links[k];
    for (let x = 0; x < L.length; x += 2) {
      const a = reverse ? T[k][L[x + 1]] : S[k][L[x]];
      const b = reverse ? S[k][L[x]] : T[k][L[x + 1]];
      if (a >= 203) continue; // only the 200 most frequent words of the input side
      const wa = inV.words[a];
      const wb = outV.words[b];
      if (!isWordToken(wa) || !isWordToken(wb) || wa === wb) continue;
      total++;
      cw.set(a, (cw.get(a) ?? 0) + 1);
      for (const suf of suffixesOf(wb)) {
        csuf.set(suf, (csuf.get(suf) ?? 0) + 1);
        const key = a + '\t' + suf;
        pair.set(key, (pair.get(key) ?? 0) + 1);
      }
    }
  }
  const res: AffixPattern[] = [];
  for (const [key, c] of pair) {
    if (c < 8) continue;
    const [a, suf] = key.split('\t');
    const lift = (c * total) / (cw.get(Number(a))! * csuf.get(suf)!);
    if (lift < 2) continue;
    res.push({ source: inV.words[Number(a)], suffix: suf, count: c, lift });
  }
  res.sort((x, y) => y.count * Math.log(y.lift) - x.count * Math.log(x.lift));
  // keep the best suffix per source word
  const seen = new Set<string>();
  const out: AffixPattern[] = [];
  for (const r of res) {
    if (seen.has(r.source)) continue;
    seen.add(r.source);
    out.push(r);
    if (out.length >= 30) break;
  }
  return out;
}

/* ------------------------------------------------------------------ lookups */

export function dirIndex(direction: Direction | undefined): 0 | 1 {
  return direction === 'reverse' ? 1 : 0;
}

/** Best translations of an input-side word id. */
export function lexEntries(m: AgentModel, dir: 0 | 1, id: number): LexEntry[] {
  const L = m.lex[dir];
  if (id <= 0 || id + 1 >= L.off.length) return [];
  const outV = m.sides[dir === 0 ? 1 : 0];
  const res: LexEntry[] = [];
  for (let x = L.off[id]; x < L.off[id + 1]; x++) res.push({ word: L.ids[x] === 0 ? '' : outV.words[L.ids[x]], prob: L.probs[x] });
  return res;
}

/** Lexicon and phrase-table entries relevant to `text` (for prompts and provenance). */
export function lookupLexicon(m: AgentModel, text: string, direction: Direction = 'forward', perWord = 3): LexiconUse[] {
  const dir = dirIndex(direction);
  const inV = m.sides[dir];
  const toks = modelTokens(text);
  const out: LexiconUse[] = [];
  const seen = new Set<string>();
  for (const w of toks) {
    if (!isWordToken(w) || seen.has(w)) continue;
    seen.add(w);
    const id = inV.index.get(w) ?? 0;
    for (const e of lexEntries(m, dir, id).filter((e) => e.word).slice(0, perWord)) out.push({ source: w, target: e.word, prob: e.prob });
  }
  // multiword phrases present in the text
  const tab = m.tables[dir];
  const outV = m.sides[dir === 0 ? 1 : 0];
  for (let i = 0; i < toks.length; i++)
    for (let n = 2; n <= 3 && i + n <= toks.length; n++) {
      const key = toks.slice(i, i + n).join(' ');
      const k = tab.keyIndex.get(key);
      if (k === undefined || seen.has(key)) continue;
      seen.add(key);
      const o = tab.off[k];
      if (o >= tab.off[k + 1] || tab.counts[o] < 2) continue;
      const tw = Array.from(tab.tgtIds.subarray(tab.tgtOff[o], tab.tgtOff[o + 1])).map((id) => outV.words[id]);
      out.push({ source: key, target: tw.join(' '), prob: Math.exp(tab.scores[o * 4]) });
    }
  return out;
}

/* ------------------------------------------------------------------ summary */

export function summarizeCoreMemory(m: AgentModel, opts?: { srcLang?: string; tgtLang?: string; entries?: number }): string {
  const src = opts?.srcLang ?? 'source';
  const tgt = opts?.tgtLang ?? 'target';
  const n = opts?.entries ?? 40;
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
  for (let id = 3; id < vs.words.length && shown < n; id++) {
    const w = vs.words[id];
    if (!isWordToken(w) || Array.from(w).length < 3) continue;
    const es = lexEntries(m, 0, id)
      .filter((e) => e.word && isWordToken(e.word) && e.prob >= 0.05)
      .slice(0, 3);
    if (!es.length) continue;
    lines.push(`- ${w} → ${es.map((e) => `${e.word} (${e.prob.toFixed(2)})`).join(', ')}`);
    shown++;
  }
  lines.push('');
  lines.push(`## Affix patterns (${src} word ↔ ${tgt} suffix)`);
  for (const a of m.affixes[0].slice(0, 15)) lines.push(`- "${a.source}" ↔ -${a.suffix} (${a.count}×, lift ${a.lift.toFixed(1)})`);
  if (!m.affixes[0].length) lines.push('- (none frequent enough yet)');
  return lines.join('\n');
}

/* ------------------------------------------------------------------ serialization */

/** Schema of the `MODL` artifact written by `serializeModel` (container: artifact-codec). */
export const MODEL_SCHEMA = 2;
const MODEL_KIND = 'MODL';

/** Looks up a phrase-table key (words joined by one space); a `Map` satisfies it. */
export interface KeyLookup {
  get(key: string): number | undefined;
  has(key: string): boolean;
  readonly size: number;
}

/** Phrase keys stored as word-id sequences of the input side, looked up through an open-addressing hash. */
class PhraseKeyIndex implements KeyLookup {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(
    private readonly vocab: SideVocab,
    private readonly start: Int32Array,
    private readonly ids: Int32Array,
  ) {
    let cap = 1024;
    while (cap < 2 * this.size) cap *= 2;
    this.slots = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    for (let k = 0; k < this.size; k++) {
      let h = this.hash(ids, start[k], start[k + 1]) & this.mask;
      while (this.slots[h] !== -1) h = (h + 1) & this.mask;
      this.slots[h] = k;
    }
  }

  get size(): number {
    return this.start.length - 1;
  }

  private hash(a: ArrayLike<number>, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ a[i], 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get(key: string): number | undefined {
    const words = key.split(' ');
    const q = new Int32Array(words.length);
    for (let i = 0; i < words.length; i++) {
      const id = this.vocab.index.get(words[i]);
      if (id === undefined) return undefined;
      q[i] = id;
    }
    let h = this.hash(q, 0, q.length) & this.mask;
    for (;;) {
      const k = this.slots[h];
      if (k === -1) return undefined;
      const s = this.start[k];
      if (this.start[k + 1] - s === q.length) {
        let same = true;
        for (let i = 0; i < q.length && same; i++) same = this.ids[s + i] === q[i];
        if (same) return k;
      }
      h = (h + 1) & this.mask;
    }
  }

  get byteSize(): number {
    return this.slots.byteLength + this.start.byteLength + this.ids.byteLength;
  }

  /** The keys as text (materialized once, on first use). */
  texts(): string[] {
    const out = new Array<string>(this.size);
    const w = this.vocab.words;
    for (let k = 0; k < this.size; k++) {
      let t = w[this.ids[this.start[k]]];
      for (let i = this.start[k] + 1; i < this.start[k + 1]; i++) t += ' ' + w[this.ids[i]];
      out[k] = t;
    }
    return out;
  }
}

export function serializeModel(m: AgentModel): Uint8Array {
  const w = new ArtifactWriter(MODEL_KIND, MODEL_SCHEMA);
  w.meta('stats', m.stats).meta('affixes', m.affixes);
  if (m.calibration) w.meta('calibration', m.calibration);
  for (let d = 0; d < 2; d++) {
    const side = m.sides[d];
    w.strings(`words${d}`, side.words).strings(`cased${d}`, side.cased).uints(`freq${d}`, side.freq);
    const t = m.tables[d];
    // keys as word ids of the input side: lengths + ids
    const keyLen = new Uint8Array(t.keys.length);
    const keyIds: number[] = [];
    t.keys.forEach((k, i) => {
      const ws = k.split(' ');
      keyLen[i] = ws.length;
      for (const x of ws) keyIds.push(side.index.get(x) ?? 0);
    });
    w.raw(`keyLen${d}`, keyLen).uints(`keyIds${d}`, keyIds);
    w.offsets(`off${d}`, t.off).offsets(`tgtOff${d}`, t.tgtOff).uints(`tgtIds${d}`, t.tgtIds);
    w.quantized(`scores${d}`, t.scores).uints(`counts${d}`, t.counts);
    w.offsets(`lexOff${d}`, m.lex[d].off).uints(`lexIds${d}`, m.lex[d].ids).raw(`lexProbs${d}`, m.lex[d].probs);
    m.lms[d].write(w, `lm${d}`);
  }
  return w.finish();
}

/** Reads a model artifact: the current `MODL` container, or a legacy `GAIAMDL1` blob (migrated in memory). */
export function deserializeModel(bytes: Uint8Array): AgentModel {
  if (!ArtifactReader.is(bytes)) return deserializeLegacyModel(bytes);
  const r = ArtifactReader.open(bytes, MODEL_KIND);
  if (r.schema !== MODEL_SCHEMA) throw new ArtifactFormatError(`model schema ${r.schema} is not readable by this engine (reads ${MODEL_SCHEMA})`);
  const side = (d: number): SideVocab => {
    const words = r.strings(`words${d}`).toArray();
    const index = new Map<string, number>();
    for (let i = 0; i < words.length; i++) index.set(words[i], i);
    return { words, cased: r.strings(`cased${d}`).toArray(), index, freq: r.float32(`freq${d}`) };
  };
  const sides: [SideVocab, SideVocab] = [side(0), side(1)];
  const table = (d: number): PhraseTable => {
    const len = r.raw<Uint8Array>(`keyLen${d}`);
    const start = new Int32Array(len.length + 1);
    for (let i = 0; i < len.length; i++) start[i + 1] = start[i] + len[i];
    const keyIndex = new PhraseKeyIndex(sides[d], start, r.int32(`keyIds${d}`));
    const t: Omit<PhraseTable, 'keys'> = {
      keyIndex,
      off: r.int32(`off${d}`),
      tgtOff: r.int32(`tgtOff${d}`),
      tgtIds: r.int32(`tgtIds${d}`),
      scores: r.float32(`scores${d}`),
      counts: r.float32(`counts${d}`),
    };
    // the key texts are only needed by the decoder's back-offs (which keep the single words they want): built on
    // access and only weakly kept, so a loaded agent does not carry every phrase as a string
    let texts: WeakRef<string[]> | undefined;
    const keys = (): string[] => {
      const hit = texts?.deref();
      if (hit) return hit;
      const all = keyIndex.texts();
      texts = new WeakRef(all);
      return all;
    };
    return Object.defineProperty(t, 'keys', { enumerable: true, get: keys }) as PhraseTable;
  };
  // copied, like every other decoded column, so the model keeps no view into the artifact buffer
  const lex = (d: number): LexTable => ({ off: r.int32(`lexOff${d}`), ids: r.int32(`lexIds${d}`), probs: r.raw<Float32Array>(`lexProbs${d}`).slice() });
  return {
    version: 1,
    sides,
    tables: [table(0), table(1)],
    lms: [KnLm.read(r, 'lm0'), KnLm.read(r, 'lm1')],
    lex: [lex(0), lex(1)],
    stats: r.meta<ModelStats>('stats'),
    affixes: r.meta<[AffixPattern[], AffixPattern[]]>('affixes'),
    calibration: r.meta<ModelCalibration | undefined>('calibration'),
  };
}

/** Approximate bytes a loaded model holds in memory (typed arrays, vocabularies, key lookups, LM caches). */
export function modelByteSize(m: AgentModel): number {
  const STRING_OVERHEAD = 40;
  const MAP_ENTRY = 64;
  let b = 0;
  for (const lm of m.lms) b += lm.cacheBytesBound;
  for (let d = 0; d < 2; d++) {
    const v = m.sides[d];
    b += v.freq.byteLength + v.words.length * (STRING_OVERHEAD + MAP_ENTRY);
    for (const w of v.words) b += 2 * w.length;
    const t = m.tables[d];
    b += t.off.byteLength + t.tgtOff.byteLength + t.tgtIds.byteLength + t.scores.byteLength + t.counts.byteLength;
    b += t.keyIndex instanceof PhraseKeyIndex ? t.keyIndex.byteSize : t.keyIndex.size * (STRING_OVERHEAD + MAP_ENTRY + 24);
    b += m.lex[d].off.byteLength + m.lex[d].ids.byteLength + m.lex[d].probs.byteLength;
    const l = m.lms[d].data;
    for (const a of [l.uniCont, l.c3k, l.c3v, l.x3k, l.x3s, l.x3n, l.b2k, l.b2v, l.x2k, l.x2s, l.x2n]) b += a.byteLength;
  }
  return b;
}

interface LegacyModelHeader {
  words: [string[], string[]];
  cased: [string[], string[]];
  keys: [string[], string[]];
  lms: [Record<string, number>, Record<string, number>];
  stats: ModelStats;
  affixes: [AffixPattern[], AffixPattern[]];
}

/** Artifacts written before the container existed (JSON header + typed arrays). */
function deserializeLegacyModel(bytes: Uint8Array): AgentModel {
  const { header: h, arrays: a } = unpackLegacyBinary<LegacyModelHeader>('GAIAMDL1', bytes);
  const side = (d: number): SideVocab => ({
    words: h.words[d],
    cased: h.cased[d],
    index: new Map(h.words[d].map((w, i) => [w, i])),
    freq: a[`freq${d}`] as Float32Array,
  });
  const table = (d: number): PhraseTable => ({
    keys: h.keys[d],
    keyIndex: new Map(h.keys[d].map((k, i) => [k, i])),
    off: a[`off${d}`] as Int32Array,
    tgtOff: a[`tgtOff${d}`] as Int32Array,
    tgtIds: a[`tgtIds${d}`] as Int32Array,
    scores: a[`scores${d}`] as Float32Array,
    counts: a[`counts${d}`] as Float32Array,
  });
  const lex = (d: number): LexTable => ({
    off: a[`lexOff${d}`] as Int32Array,
    ids: a[`lexIds${d}`] as Int32Array,
    probs: a[`lexProbs${d}`] as Float32Array,
  });
  return {
    version: 1,
    sides: [side(0), side(1)],
    tables: [table(0), table(1)],
    lms: [KnLm.fromLegacyArrays('lm0', h.lms[0], a), KnLm.fromLegacyArrays('lm1', h.lms[1], a)],
    lex: [lex(0), lex(1)],
    stats: h.stats,
    affixes: h.affixes,
  };
}

/* ------------------------------------------------------------------ owner notes beside the learned summary */

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
