/**
 * Frequent word ↔ suffix correspondences: which suffix of the output word a frequent input word is aligned with far
 * more often than chance (e.g. a Spanish preposition and a Guaraní postposition), for the readable core memory.
 */
import { AFFIX_MAX_PATTERNS, AFFIX_MIN_COUNT, AFFIX_MIN_LIFT, AFFIX_MIN_STEM, AFFIX_SOURCE_WORDS, AFFIX_SUFFIX_MAX, AFFIX_SUFFIX_MIN } from './tuning';
import { isWordToken } from './tokenize';
import { FIRST_WORD_ID, SideVocab } from './vocabulary';

export interface AffixPattern {
  source: string;
  suffix: string;
  count: number;
  lift: number;
}

function suffixesOf(w: string): string[] {
  const ch = Array.from(w);
  const out: string[] = [];
  for (let n = AFFIX_SUFFIX_MIN; n <= AFFIX_SUFFIX_MAX; n++) if (ch.length >= n + AFFIX_MIN_STEM) out.push(ch.slice(ch.length - n).join(''));
  return out;
}

export function learnAffixes(S: Int32Array[], T: Int32Array[], links: Int32Array[], vs: SideVocab, vt: SideVocab, reverse: boolean): AffixPattern[] {
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
      if (a >= FIRST_WORD_ID + AFFIX_SOURCE_WORDS) continue;
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
    if (c < AFFIX_MIN_COUNT) continue;
    const [a, suf] = key.split('\t');
    const lift = (c * total) / (cw.get(Number(a))! * csuf.get(suf)!);
    if (lift < AFFIX_MIN_LIFT) continue;
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
    if (out.length >= AFFIX_MAX_PATTERNS) break;
  }
  return out;
}
