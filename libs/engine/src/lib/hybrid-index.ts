/**
 * Hybrid retrieval over both sides of an agent's pairs:
 *   - BM25 over folded words,
 *   - BM25 over character n-grams (3..4, word-bounded) so agglutinated forms sharing a stem still match,
 *   - dense vectors learned on the CPU from the corpus itself (random indexing over the pairs'
 *     co-occurrences, IDF-weighted sentence averages),
 * fused by reciprocal rank fusion. Pairs are added / removed incrementally; the index serializes to a
 * compact artifact (artifact-codec `INDX`): pair texts as string tables decoded per hit, postings as
 * varint doc gaps decoded while scoring, vectors as 16-bit integers — loading copies almost nothing.
 */
import { createHash } from 'node:crypto';
import { ArtifactFormatError, ArtifactReader, ArtifactWriter, ByteSink, readVarint, StringTable } from './artifact-codec';
import { unpackLegacyBinary } from './legacy-binary';
import { foldToken, isWordToken, tokenize } from './tokenize';
import type { ParallelPair, RetrievalHit } from './types';
import { sortedIndexOf } from './sorted-keys';
import { TopK } from './top-k';
import { gramTermCounts, wordGrams } from './gram-terms';

const K1 = 1.2;
const B = 0.75;
const RRF_K = 60;
const DIM = 32;
/** Distinct pair texts per stored block (the block a hit's text is in is inflated on its first use). */
const TEXT_BLOCK = 512;
/** Context vectors per stored block (the blocks of a query's words are inflated on their first use). */
const CONTEXT_BLOCK = 1024;
/**
 * The context vector of a word found in at most this many documents is not stored (index schema 6): it is learned
 * again from those documents' texts when a query first needs it (their texts read and tokenized, against 64 bytes per
 * row stored). 1: 60% of the shp rows (0.38 MB), 10% of the gn ones (0.33 MB); learning them costs 2.1% / 0.5% of the
 * CPU of the first 400 translations after a load (then they are known). At 2: shp 0.47 MB, gn 0.96 MB for 5.8% / 1.3%;
 * at 5: 0.56 / 1.29 MB for 7.6% / 6.7% (the warm per-sentence CPU must not grow).
 */
const DERIVED_CONTEXT_MAX_DF = 1;
/** Largest 16-bit code of a vector component: a row's codes are its values over its largest one times this. */
const VECTOR_CODE_MAX = 32767;
/**
 * Largest code of a document vector component (index schema 7: one signed byte each). A document vector is made of
 * its codes when it is computed (`snapToCodes`), so the index searches the values a loaded copy reads back. 31: the
 * codes deflate to 0.71 of a byte each (shp dev: search top-1 as with 127 for 600 of 600 queries, top-8 lists alike
 * for 481); bench:quality equal to 4 decimals with 127, 31, 7 and 3, but at 7 / 3 the top-1 hit changes for 44 / 84
 * of those queries.
 */
const DOC_VECTOR_CODE_MAX = 31;
/**
 * The document vectors of an index with at most this many word postings (both sides) are not stored (index schema 10)
 * but computed again from its postings and context rows when a side is first searched: 0.27 MB of quy's 1.50 MB
 * artifact (short pairs: a vector is 32 bytes of a 43-byte pair). The work grows with the postings: cold load + first
 * translation, median of 9 side by side, quy (57k postings) 29.8 → 57.8 ms, cni (67k) 20.5 → 42.5, and in an earlier
 * check shp (147k) 29.1 → 80.9, aym (196k) 50.0 → 112 ms; above this bound an agent's vectors are a smaller share of
 * its bytes and the cold path cannot pay for them.
 */
const DERIVED_DOC_VECTORS_MAX_POSTINGS = 100_000;
/**
 * Vectors the postings do not give (computed before later pairs changed the context, or differing by rounding: the
 * words of a document are summed in key order, not text order) are stored as fixes; when more than this share of the
 * documents need one, the side stores all its vectors instead.
 */
const DERIVED_DOC_VECTORS_MAX_FIXED = 0.25;
/**
 * Context rows are sums of ±1 index vectors (integers): index schema 8 stores them as they are (zig-zag, narrowest
 * width, deflated: 0.56 of the 16-bit scaled codes for shp) when every value is an integer of at most this size (exact
 * in float32). Rows of an index read from an older artifact are not integers: they are stored as 16-bit codes.
 */
const CONTEXT_INTEGER_MAX = 1 << 24;
const FIELD_TOP = 100;
const WORD_SALT = 0x1234567;
const CHAR_SALT = 0x7654321;

export function indexWords(text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) if (isWordToken(t)) out.push(foldToken(t));
  return out;
}

export function charGrams(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const s = `#${w}#`;
    for (let n = 3; n <= 4; n++) for (let i = 0; i + n <= s.length; i++) out.push(s.slice(i, i + n));
  }
  return out;
}

function hash32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Terms are hashed to 31-bit keys: no term dictionary to rebuild when an index loads. */
function countTerms(terms: string[], salt: number): Map<number, number> {
  const m = new Map<number, number>();
  for (const t of terms) {
    const h = hash32(t, 0x811c9dc5 ^ salt) & 0x7fffffff;
    m.set(h, (m.get(h) ?? 0) + 1);
  }
  return m;
}

interface Segment {
  keys: Int32Array;
  off: Int32Array;
  doc: Int32Array;
  tf: Uint16Array;
}

/** Read-only postings of a loaded index: per term, varints of ((doc gap - 1) · 2 + [tf > 1]) then tf - 2 when flagged. */
interface PackedPostings {
  keys: Int32Array;
  df: Int32Array;
  /** byte offset of each term's postings (keys.length + 1) */
  start: Int32Array;
  bytes: Uint8Array;
}

/**
 * Read-only character n-gram postings of a loaded index, derived from the words: a gram's documents are
 * those of the words containing it, its term frequency in a document Σ tf(word) · occurrences in the word.
 * Scores are exactly those of document-level n-gram postings, at a fraction of the size.
 */
interface GramPostings {
  keys: Int32Array;
  df: Int32Array;
  /** per gram: words containing it (gWord) and how often (gMult: bytes as stored when each fits one), CSR by gStart */
  gStart: Int32Array;
  gWord: Int32Array;
  gMult: Int32Array | Uint8Array;
  /** per word id: varint postings as in PackedPostings */
  wStart: Int32Array;
  wBytes: Uint8Array;
}

const SEG_MAX = 1 << 22;
/** Postings of n-gram document lists kept per field once derived (12 bytes each: ≤ 6 MB per field). */
const GRAM_CACHE_POSTINGS = 1 << 22;
/** Gram indexes per field in a cache key (key = field number · GRAM_KEY_SPAN + gram index). */
const GRAM_KEY_SPAN = 1 << 26;

interface GramList {
  docs: Int32Array;
  /** Σ tf(word) · occurrences of the gram in the word: integers */
  tfs: Int32Array;
}

/**
 * Document lists of recently queried n-grams, one LRU for every loaded index of the process (8 bytes per posting,
 * at most GRAM_CACHE_POSTINGS postings: 32 MB): the busy agents keep theirs, an agent nobody asks costs nothing.
 */
const gramCache = new Map<number, GramList>();
let gramCached = 0;
let gramFields = 0;
/** Scratch of gramList (all zero between calls): per-document term frequency and the documents found. */
let gramTf = new Float64Array(0);
let gramDocs = new Int32Array(0);
/** Varint bytes: continuation flag and the 7 value bits of each byte. */
const VARINT_CONT = 128;
const VARINT_LOW = 127;

/** Sorts (term, doc, tf) triplets by term (stable) into CSR segments of at most SEG_MAX postings. */
function buildSegments(T: Int32Array, D: Int32Array, F: Uint16Array, n: number): Segment[] {
  const out: Segment[] = [];
  for (let start = 0; start < n; start += SEG_MAX) {
    const len = Math.min(SEG_MAX, n - start);
    const comb = new Float64Array(len);
    for (let i = 0; i < len; i++) comb[i] = T[start + i] * SEG_MAX + i;
    comb.sort();
    const doc = new Int32Array(len);
    const tf = new Uint16Array(len);
    const keys: number[] = [];
    const off: number[] = [];
    let prev = -1;
    for (let k = 0; k < len; k++) {
      const c = comb[k];
      const i = c % SEG_MAX;
      const t = (c - i) / SEG_MAX;
      if (t !== prev) {
        keys.push(t);
        off.push(k);
        prev = t;
      }
      doc[k] = D[start + i];
      tf[k] = F[start + i];
    }
    off.push(len);
    out.push({ keys: Int32Array.from(keys), off: Int32Array.from(off), doc, tf });
  }
  return out;
}

function segTriplets(segs: Segment[], map?: Int32Array): { T: Int32Array; D: Int32Array; F: Uint16Array; n: number } {
  let total = 0;
  for (const s of segs) total += s.doc.length;
  const T = new Int32Array(total);
  const D = new Int32Array(total);
  const F = new Uint16Array(total);
  let n = 0;
  for (const s of segs)
    for (let b = 0; b < s.keys.length; b++)
      for (let i = s.off[b]; i < s.off[b + 1]; i++) {
        const d = map ? map[s.doc[i]] : s.doc[i];
        if (d < 0) continue;
        T[n] = s.keys[b];
        D[n] = d;
        F[n] = s.tf[i];
        n++;
      }
  return { T, D, F, n };
}

class PostingField {
  segs: Segment[] = [];
  packed: PackedPostings | null = null;
  grams: GramPostings | null = null;
  /** this field's number in the process-wide n-gram cache keys (a new one whenever its postings are loaded) */
  private gramField = gramFields++ % GRAM_KEY_SPAN;

  /** The documents (ascending, as document-level postings list them) and term frequencies of gram `g`. */
  private gramList(G: GramPostings, g: number): GramList {
    const key = this.gramField * GRAM_KEY_SPAN + g;
    const hit = gramCache.get(key);
    if (hit) {
      // least recently used first: a hit moves to the end of the eviction order
      gramCache.delete(key);
      gramCache.set(key, hit);
      return hit;
    }
    const n = this.docLen.length;
    if (gramTf.length < n) {
      gramTf = new Float64Array(n);
      gramDocs = new Int32Array(n);
    }
    const acc = gramTf;
    const found = gramDocs;
    const bytes = G.wBytes;
    let nd = 0;
    let lo = n;
    let hi = -1;
    for (let x = G.gStart[g]; x < G.gStart[g + 1]; x++) {
      const m = G.gMult[x];
      const w = G.gWord[x];
      // varint postings as in forPostings, decoded inline (the hottest loop of a search)
      let p = G.wStart[w];
      const to = G.wStart[w + 1];
      let d = -1;
      while (p < to) {
        let v = bytes[p++];
        if (v >= VARINT_CONT) {
          let y = v & VARINT_LOW;
          let mul = VARINT_CONT;
          do {
            v = bytes[p++];
            y += (v & VARINT_LOW) * mul;
            mul *= VARINT_CONT;
          } while (v >= VARINT_CONT);
          v = y;
        }
        d += (v >>> 1) + 1;
        let tf = 1;
        if (v & 1) {
          let t = bytes[p++];
          if (t >= VARINT_CONT) {
            let y = t & VARINT_LOW;
            let mul = VARINT_CONT;
            do {
              t = bytes[p++];
              y += (t & VARINT_LOW) * mul;
              mul *= VARINT_CONT;
            } while (t >= VARINT_CONT);
            t = y;
          }
          tf = t + 2;
        }
        if (acc[d] === 0) {
          found[nd++] = d;
          if (d < lo) lo = d;
          if (d > hi) hi = d;
        }
        acc[d] += tf * m;
      }
    }
    const docs = new Int32Array(nd);
    const tfs = new Int32Array(nd);
    if (nd * Math.log2(nd + 1) > hi - lo) {
      // dense enough: collecting the marked range in order is cheaper than sorting
      let i = 0;
      for (let d = lo; d <= hi; d++)
        if (acc[d] !== 0) {
          docs[i] = d;
          tfs[i++] = acc[d];
          acc[d] = 0;
        }
    } else {
      docs.set(found.subarray(0, nd));
      docs.sort(); // typed-array sort: numeric
      for (let i = 0; i < nd; i++) {
        tfs[i] = acc[docs[i]];
        acc[docs[i]] = 0;
      }
    }
    const list = { docs, tfs };
    gramCache.set(key, list);
    gramCached += nd;
    for (const [k, v] of gramCache) {
      if (gramCached <= GRAM_CACHE_POSTINGS) break;
      gramCache.delete(k);
      gramCached -= v.docs.length;
    }
    return list;
  }
  private pT = new Int32Array(4096);
  private pD = new Int32Array(4096);
  private pF = new Uint16Array(4096);
  private pN = 0;
  removedDf = new Map<number, number>();
  docLen: Int32Array = new Int32Array(1024);
  totalLen = 0;
  live = 0;

  grow(cap: number): void {
    if (cap <= this.docLen.length) return;
    const a = new Int32Array(cap);
    a.set(this.docLen);
    this.docLen = a;
  }

  addDoc(doc: number, terms: Map<number, number>, len: number): void {
    if (this.pN + terms.size > this.pT.length) {
      let cap = this.pT.length;
      while (cap < this.pN + terms.size) cap *= 2;
      const t = new Int32Array(cap);
      t.set(this.pT);
      this.pT = t;
      const d = new Int32Array(cap);
      d.set(this.pD);
      this.pD = d;
      const f = new Uint16Array(cap);
      f.set(this.pF);
      this.pF = f;
    }
    for (const [t, c] of terms) {
      this.pT[this.pN] = t;
      this.pD[this.pN] = doc;
      this.pF[this.pN] = Math.min(c, 65535);
      this.pN++;
    }
    this.docLen[doc] = len;
    this.totalLen += len;
    this.live++;
  }

  removeDoc(doc: number, terms: Map<number, number>): void {
    for (const t of terms.keys()) this.removedDf.set(t, (this.removedDf.get(t) ?? 0) + 1);
    this.totalLen -= this.docLen[doc];
    this.docLen[doc] = 0;
    this.live--;
  }

  /** Turns pending postings into a segment; merges segments of similar size (log-structured). */
  flush(): void {
    if (this.pN === 0) return;
    this.segs.push(...buildSegments(this.pT, this.pD, this.pF, this.pN));
    this.pN = 0;
    if (this.pT.length > 1 << 16) {
      this.pT = new Int32Array(4096);
      this.pD = new Int32Array(4096);
      this.pF = new Uint16Array(4096);
    }
    while (this.segs.length >= 2) {
      const a = this.segs[this.segs.length - 2];
      const b = this.segs[this.segs.length - 1];
      if (a.doc.length > 4 * b.doc.length || a.doc.length + b.doc.length > SEG_MAX) break;
      this.segs.splice(this.segs.length - 2, 2);
      const tr = segTriplets([a, b]);
      this.segs.push(...buildSegments(tr.T, tr.D, tr.F, tr.n));
    }
  }

  df(t: number): number {
    let n = 0;
    if (this.packed) {
      const b = sortedIndexOf(this.packed.keys, t);
      if (b >= 0) n += this.packed.df[b];
    }
    if (this.grams) {
      const b = sortedIndexOf(this.grams.keys, t);
      if (b >= 0) n += this.grams.df[b];
    }
    for (const s of this.segs) {
      const b = sortedIndexOf(s.keys, t);
      if (b >= 0) n += s.off[b + 1] - s.off[b];
    }
    return n - (this.removedDf.get(t) ?? 0);
  }

  /**
   * Adds BM25 contributions into acc and lists the documents touched in `touched` (in the order first touched), from
   * position `nt` on; returns the new count. `touched` needs one slot more than the documents it can list: each
   * posting writes its document at `nt` and the count advances only when the document was untouched (acc 0), with no
   * branch on it (which document a posting touches first is unpredictable: a branch there cost a third of the time).
   * `alive` null: every document of the postings is live; else the removed ones (alive 0) are taken out at the end,
   * which lists and scores the live ones exactly as skipping them posting by posting would (no test per posting).
   */
  score(query: Map<number, number>, alive: Uint8Array | null, acc: Float64Array, touched: Int32Array, nt: number, maxDfFrac: number): number {
    this.flush();
    const from = nt;
    const N = Math.max(1, this.live);
    const avg = this.totalLen / N || 1;
    const docLen = this.docLen;
    const c1 = K1 * (1 - B);
    const c2 = (K1 * B) / avg;
    const P = this.packed;
    const G = this.grams;
    for (const [t, qtf] of query) {
      // df(t), with the term's place in the packed postings and n-gram lists found once
      const pb = P ? sortedIndexOf(P.keys, t) : -1;
      const gb = G ? sortedIndexOf(G.keys, t) : -1;
      let df = (P && pb >= 0 ? P.df[pb] : 0) + (G && gb >= 0 ? G.df[gb] : 0);
      for (const s of this.segs) {
        const b = sortedIndexOf(s.keys, t);
        if (b >= 0) df += s.off[b + 1] - s.off[b];
      }
      df -= this.removedDf.get(t) ?? 0;
      if (df <= 0 || df > maxDfFrac * N + 1) continue;
      const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5)) * (1 + Math.log(qtf)) * (K1 + 1);
      if (P && pb >= 0) {
        // varint postings as in forPostings, decoded inline
        const bytes = P.bytes;
        let p = P.start[pb];
        const to = P.start[pb + 1];
        let d = -1;
        while (p < to) {
          let v = bytes[p++];
          if (v >= VARINT_CONT) {
            let y = v & VARINT_LOW;
            let mul = VARINT_CONT;
            do {
              v = bytes[p++];
              y += (v & VARINT_LOW) * mul;
              mul *= VARINT_CONT;
            } while (v >= VARINT_CONT);
            v = y;
          }
          d += (v >>> 1) + 1;
          let tf = 1;
          if (v & 1) {
            let x = bytes[p++];
            if (x >= VARINT_CONT) {
              let y = x & VARINT_LOW;
              let mul = VARINT_CONT;
              do {
                x = bytes[p++];
                y += (x & VARINT_LOW) * mul;
                mul *= VARINT_CONT;
              } while (x >= VARINT_CONT);
              x = y;
            }
            tf = x + 2;
          }
          const a = acc[d];
          touched[nt] = d;
          nt += +(a === 0);
          acc[d] = a + (idf * tf) / (tf + c1 + c2 * docLen[d]);
        }
      }
      if (G && gb >= 0) {
        const { docs, tfs } = this.gramList(G, gb);
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          const tf = tfs[i];
          const a = acc[d];
          touched[nt] = d;
          nt += +(a === 0);
          acc[d] = a + (idf * tf) / (tf + c1 + c2 * docLen[d]);
        }
      }
      for (const s of this.segs) {
        const b = sortedIndexOf(s.keys, t);
        if (b < 0) continue;
        const end = s.off[b + 1];
        for (let i = s.off[b]; i < end; i++) {
          const d = s.doc[i];
          const tf = s.tf[i];
          const a = acc[d];
          touched[nt] = d;
          nt += +(a === 0);
          acc[d] = a + (idf * tf) / (tf + c1 + c2 * docLen[d]);
        }
      }
    }
    if (alive) {
      // removed documents were scored like the others: off the list (the others keep their order) and back to zero
      let k = from;
      for (let i = from; i < nt; i++) {
        const d = touched[i];
        if (alive[d]) touched[k++] = d;
        else acc[d] = 0;
      }
      nt = k;
    }
    return nt;
  }

  /** One CSR over renumbered live documents (map[d] = new number or -1). */
  /** All live postings, renumbered (map[d] = new number or -1), packed per term. */
  pack(map: Int32Array): PackedPostings {
    this.flush();
    if (this.grams) throw new Error('n-gram postings derived from words are re-derived from the texts, not repacked');
    const tr = segTriplets(this.packed ? [unpackPostings(this.packed), ...this.segs] : this.segs, map);
    return packPostings(tr.T, tr.D, tr.F, tr.n);
  }

  load(packed: PackedPostings | null, grams: GramPostings | null, segs: Segment[], lens: Int32Array, cap: number): void {
    this.packed = packed;
    this.grams = grams;
    this.gramField = gramFields++ % GRAM_KEY_SPAN;
    this.segs = segs;
    this.pN = 0;
    this.removedDf = new Map();
    this.docLen = new Int32Array(Math.max(cap, lens.length));
    this.docLen.set(lens);
    let tot = 0;
    for (let i = 0; i < lens.length; i++) tot += lens[i];
    this.totalLen = tot;
    this.live = lens.length;
  }
}

/** Calls f(doc, tf) for the varint postings in bytes[from, to). */
function forPostings(bytes: Uint8Array, from: number, to: number, f: (doc: number, tf: number) => void): void {
  let p = from;
  let d = -1;
  while (p < to) {
    let x = bytes[p++];
    if (x >= 128) {
      let v = x & 127;
      let mul = 128;
      do {
        x = bytes[p++];
        v += (x & 127) * mul;
        mul *= 128;
      } while (x >= 128);
      x = v;
    }
    d += (x >>> 1) + 1;
    let tf = 1;
    if (x & 1) {
      let y = bytes[p++];
      if (y >= 128) {
        let v = y & 127;
        let mul = 128;
        do {
          y = bytes[p++];
          v += (y & 127) * mul;
          mul *= 128;
        } while (y >= 128);
        y = v;
      }
      tf = y + 2;
    }
    f(d, tf);
  }
}

/** Character n-gram postings of documents (ascending) given as their index words, derived from the words. */
function buildGramPostings(docs: string[][]): GramPostings & { words: string[] } {
  const vocab = new Map<string, number>();
  const wordDocs: number[][] = [];
  docs.forEach((words, d) => {
    const counts = new Map<number, number>();
    for (const w of words) {
      let id = vocab.get(w);
      if (id === undefined) {
        vocab.set(w, (id = wordDocs.length));
        wordDocs.push([]);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, c] of counts) wordDocs[id].push(d, c);
  });
  const wSink = new ByteSink();
  const wStart = new Int32Array(wordDocs.length + 1);
  wordDocs.forEach((list, id) => {
    wStart[id] = wSink.length;
    let prev = -1;
    for (let i = 0; i < list.length; i += 2) {
      const tf = Math.min(list[i + 1], 65535);
      wSink.varint((list[i] - prev - 1) * 2 + (tf > 1 ? 1 : 0));
      if (tf > 1) wSink.varint(tf - 2);
      prev = list[i];
    }
  });
  wStart[wordDocs.length] = wSink.length;
  const byGram = new Map<number, number[]>();
  for (const [w, id] of vocab)
    for (const [g, m] of countTerms(charGrams([w]), CHAR_SALT)) {
      let l = byGram.get(g);
      if (!l) byGram.set(g, (l = []));
      l.push(id, m);
    }
  const keys = Int32Array.from(byGram.keys()).sort();
  const df = new Int32Array(keys.length);
  const gStart = new Int32Array(keys.length + 1);
  const gWord: number[] = [];
  const gMult: number[] = [];
  const seen = new Int32Array(docs.length);
  keys.forEach((g, k) => {
    gStart[k] = gWord.length;
    const l = byGram.get(g)!;
    let n = 0;
    for (let i = 0; i < l.length; i += 2) {
      gWord.push(l[i]);
      gMult.push(l[i + 1]);
      const list = wordDocs[l[i]];
      for (let j = 0; j < list.length; j += 2)
        if (seen[list[j]] !== k + 1) {
          seen[list[j]] = k + 1;
          n++;
        }
    }
    df[k] = n;
  });
  gStart[keys.length] = gWord.length;
  return { keys, df, gStart, gWord: Int32Array.from(gWord), gMult: Int32Array.from(gMult), wStart, wBytes: wSink.finish(), words: [...vocab.keys()] };
}

/** Groups (term, doc, tf) triplets by term (stable: docs stay ascending) into varint postings. */
function packPostings(T: Int32Array, D: Int32Array, F: Uint16Array, n: number): PackedPostings {
  const sorted = T.slice(0, n).sort();
  let nk = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[nk++] = sorted[i];
  const keys = sorted.slice(0, nk);
  const df = new Int32Array(nk);
  const bucket = new Int32Array(n);
  for (let i = 0; i < n; i++) df[(bucket[i] = sortedIndexOf(keys, T[i]))]++;
  const first = new Int32Array(nk + 1);
  for (let k = 0; k < nk; k++) first[k + 1] = first[k] + df[k];
  const order = new Int32Array(n);
  const fill = first.slice(0, nk);
  for (let i = 0; i < n; i++) order[fill[bucket[i]]++] = i;
  const sink = new ByteSink();
  const start = new Int32Array(nk + 1);
  for (let k = 0; k < nk; k++) {
    start[k] = sink.length;
    let prev = -1;
    for (let x = first[k]; x < first[k + 1]; x++) {
      const i = order[x];
      if (D[i] <= prev) throw new Error('postings of a term must be in ascending document order');
      const tf = F[i];
      sink.varint((D[i] - prev - 1) * 2 + (tf > 1 ? 1 : 0));
      if (tf > 1) sink.varint(tf - 2);
      prev = D[i];
    }
  }
  start[nk] = sink.length;
  return { keys, df, start, bytes: sink.finish() };
}

/** The packed postings as a plain segment (re-serialization after incremental changes). */
function unpackPostings(p: PackedPostings): Segment {
  const total = p.df.reduce((a, b) => a + b, 0);
  const off = new Int32Array(p.keys.length + 1);
  const doc = new Int32Array(total);
  const tf = new Uint16Array(total);
  const pos = [0];
  let o = 0;
  for (let k = 0; k < p.keys.length; k++) {
    off[k] = o;
    pos[0] = p.start[k];
    let d = -1;
    while (pos[0] < p.start[k + 1]) {
      const x = readVarint(p.bytes, pos);
      d += Math.floor(x / 2) + 1;
      doc[o] = d;
      tf[o++] = x % 2 ? readVarint(p.bytes, pos) + 2 : 1;
    }
  }
  off[p.keys.length] = o;
  return { keys: p.keys, off, doc, tf };
}

/**
 * Each index word's word-key index, if the gram postings' per-word document lists are exactly the word field's postings
 * (no two index words share a hashed key); null when they differ (the gram side then stores its own copy).
 */
function wordKeyIndexes(g: GramPostings & { words: string[] }, p: PackedPostings): Int32Array | null {
  const toKey = new Int32Array(g.words.length);
  for (let id = 0; id < g.words.length; id++) {
    const k = sortedIndexOf(p.keys, postingKey(g.words[id]));
    if (k < 0) return null;
    const a = g.wBytes.subarray(g.wStart[id], g.wStart[id + 1]);
    const b = p.bytes.subarray(p.start[k], p.start[k + 1]);
    if (a.length !== b.length) return null;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return null;
    toKey[id] = k;
  }
  return toKey;
}

/**
 * The words in word-key order when every key is the key of exactly one word (schema 9: they stand for the keys and the
 * gram lists); null otherwise.
 */
function wordsInKeyOrder(words: string[], toKey: Int32Array, keys: number): string[] | null {
  if (words.length !== keys || new Set(toKey).size !== keys) return null;
  const out = new Array<string>(keys);
  toKey.forEach((k, id) => (out[k] = words[id]));
  return out;
}

/**
 * The gram side referring to the word postings by key index (schema 4 to 8, and a side of schema 9 where two words
 * share a key): per gram, its words as word-key indexes in ascending order, stored as gaps (the first one as is), with
 * their multiplicities in the same order (a gram's document list sums integer counts: the order of its words does not
 * change it).
 */
function gramWordKeyGaps(g: GramPostings, toKey: Int32Array): { gaps: Int32Array; mult: Int32Array } {
  const gaps = new Int32Array(g.gWord.length);
  const mult = new Int32Array(g.gWord.length);
  for (let k = 0; k + 1 < g.gStart.length; k++) {
    const a = g.gStart[k];
    const order = Array.from({ length: g.gStart[k + 1] - a }, (_, i) => a + i).sort((x, y) => toKey[g.gWord[x]] - toKey[g.gWord[y]]);
    let prev = 0;
    order.forEach((x, i) => {
      const key = toKey[g.gWord[x]];
      gaps[a + i] = key - prev;
      mult[a + i] = g.gMult[x];
      prev = key;
    });
  }
  return { gaps, mult };
}

/** A gram side's multiplicities: the stored bytes when each is one byte (no copy widened to 32 bits), else widened. */
function gramMult(r: ArtifactReader, name: string): Int32Array | Uint8Array {
  const stored = r.uintBytes(name);
  return stored && stored.width === 1 ? stored.bytes.subarray(0, stored.n) : r.int32(name);
}

/** The sizes of a side's gram lists when they are derived from its words (schema 9, meta `gramSizes<side>`). */
interface GramSizes {
  grams: number;
  entries: number;
}

/** Bytes a side derives from its words when it is loaded (schema 9): word keys, gram keys, counts, starts and lists. */
function derivedGramBytes(r: ArtifactReader, side: number): number {
  const sizes = r.meta<GramSizes | undefined>(`gramSizes${side}`);
  if (!sizes) return 0;
  return (
    r.count(`words${side}`) * Int32Array.BYTES_PER_ELEMENT + sizes.grams * 3 * Int32Array.BYTES_PER_ELEMENT + sizes.entries * (Int32Array.BYTES_PER_ELEMENT + 1)
  );
}

/** The word field's keys of words given in key order (schema 9). */
function postingKeysOf(words: string[]): Int32Array {
  const keys = Int32Array.from(words, postingKey);
  for (let k = 1; k < keys.length; k++) if (keys[k] <= keys[k - 1]) throw new ArtifactFormatError('index words are not in key order');
  return keys;
}

/** Word-key indexes of a gram side from their per-gram gaps. */
function gramWordKeys(gaps: Int32Array, gStart: Int32Array): Int32Array {
  for (let k = 0; k + 1 < gStart.length; k++) for (let x = gStart[k] + 1; x < gStart[k + 1]; x++) gaps[x] += gaps[x - 1];
  return gaps;
}

/**
 * Vectors of DIM floats as 16-bit integers scaled per vector (relative error ≤ 1/65534 of its largest component):
 * context rows that are not integers, document vectors read from an older artifact.
 */
function quantizeVectors(v: Float32Array, n: number): { q: Int16Array; scale: Float32Array } {
  const q = new Int16Array(n * DIM);
  const scale = new Float32Array(n);
  for (let d = 0; d < n; d++) {
    let m = 0;
    for (let i = 0; i < DIM; i++) m = Math.max(m, Math.abs(v[d * DIM + i]));
    scale[d] = m / VECTOR_CODE_MAX;
    if (m > 0) for (let i = 0; i < DIM; i++) q[d * DIM + i] = Math.round(v[d * DIM + i] / scale[d]);
  }
  return { q, scale };
}

/** Whether every value is an integer a context row stores exactly (schema 8, CONTEXT_INTEGER_MAX). */
function integerRows(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isInteger(v[i]) || Math.abs(v[i]) > CONTEXT_INTEGER_MAX) return false;
  return true;
}

/**
 * Context vectors in blocks of CONTEXT_BLOCK rows: a query inflates the blocks of its words. Schema 6: the rows
 * `derived` (ascending) are not stored, the others are, in order. Schema 8: rows of integers as zig-zag values
 * (`ctxZ0`, `ctxZ1`, …), else 16-bit codes and a scale per row (`ctxQ0`, …, `ctxScale`).
 */
function writeContextVectors(w: ArtifactWriter, v: Float32Array, n: number, derived: Int32Array, integers: boolean): void {
  if (integers) {
    const z: number[] = [];
    for (let b = 0, x = 0; b < n; b++) {
      if (x < derived.length && derived[x] === b) {
        x++;
        continue;
      }
      for (let i = 0; i < DIM; i++) z.push(zigZag(v[b * DIM + i]));
    }
    const rows = z.length / DIM;
    const blocks = Math.ceil(rows / CONTEXT_BLOCK);
    w.meta('ctxBlocks', blocks).meta('ctxIntegers', true);
    for (let b = 0; b < blocks; b++) w.uints(`ctxZ${b}`, z.slice(b * CONTEXT_BLOCK * DIM, Math.min(rows, (b + 1) * CONTEXT_BLOCK) * DIM));
    return;
  }
  const all = quantizeVectors(v, n);
  const kept = n - derived.length;
  const q = new Int16Array(kept * DIM);
  const scale = new Float32Array(kept);
  for (let b = 0, x = 0, k = 0; b < n; b++) {
    if (x < derived.length && derived[x] === b) {
      x++;
      continue;
    }
    q.set(all.q.subarray(b * DIM, b * DIM + DIM), k * DIM);
    scale[k++] = all.scale[b];
  }
  const blocks = Math.ceil(kept / CONTEXT_BLOCK);
  w.meta('ctxBlocks', blocks).raw('ctxScale', scale);
  for (let b = 0; b < blocks; b++) w.raw(`ctxQ${b}`, q.subarray(b * CONTEXT_BLOCK * DIM, Math.min(kept, (b + 1) * CONTEXT_BLOCK) * DIM));
}

/** An integer as a non-negative one (0, -1, 1, -2, … as 0, 1, 2, 3, …), and back. */
function zigZag(x: number): number {
  return x < 0 ? -2 * x - 1 : 2 * x;
}

function zigZagRows(z: Int32Array): Int32Array {
  const out = new Int32Array(z.length);
  for (let i = 0; i < z.length; i++) out[i] = z[i] & 1 ? -((z[i] + 1) >>> 1) : z[i] >>> 1;
  return out;
}

/** Number of values of ascending `a` below x. */
function countBelow(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One context row quantized as quantizeVectors does and read back as StoredRows.decodeRow does. */
function requantizedRow(c: Float32Array): Float32Array {
  const { q, scale } = quantizeVectors(c, 1);
  const out = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) out[i] = q[i] * scale[0];
  return out;
}

/** A document's context keys as learnContext lists them (distinct per side, side 0 first) and their index vectors' sum. */
interface DocKeys {
  keys: number[];
  sum: Float32Array;
}

function docKeysOf(d: number, wordsOf: (d: number, side: 0 | 1) => string[]): DocKeys {
  const keys = [...new Set(wordsOf(d, 0).map((w) => wordKey(0, w))), ...new Set(wordsOf(d, 1).map((w) => wordKey(1, w)))];
  const sum = new Float32Array(DIM);
  for (const k of keys) addIndexVector(k, sum, 0, 1);
  return { keys, sum };
}

/** docKeysOf remembered per document (while learning many rows at once: each document's texts tokenized once). */
function cachedDocKeys(wordsOf: (d: number, side: 0 | 1) => string[]): (d: number) => DocKeys {
  const cache = new Map<number, DocKeys>();
  return (d) => {
    let e = cache.get(d);
    if (!e) cache.set(d, (e = docKeysOf(d, wordsOf)));
    return e;
  };
}

/**
 * The context vector of `key` learned from the documents `docs` exactly as learnContext learns it (integer sums of
 * the index vectors of each document's keys, both sides, in any order).
 */
function contextRowFromDocs(key: number, docs: readonly number[], keysOf: (d: number) => DocKeys): Float32Array {
  const c = new Float32Array(DIM);
  for (const d of docs) {
    const { keys, sum } = keysOf(d);
    for (const k of keys) {
      if (k !== key) continue;
      for (let i = 0; i < DIM; i++) c[i] += sum[i];
      addIndexVector(k, c, 0, -1);
    }
  }
  return c;
}

/** Documents of key index j of packed postings. */
function postingDocs(p: PackedPostings, j: number): number[] {
  const docs: number[] = [];
  forPostings(p.bytes, p.start[j], p.start[j + 1], (d) => docs.push(d));
  return docs;
}

/**
 * Context rows a reader can learn again (schema 6): those of words in at most DERIVED_CONTEXT_MAX_DF documents whose
 * row, learned from those documents, is the stored one (`stored`: as the row is stored, schema 8 integers as they are,
 * else quantized; an index changed after it was loaded learned from dequantized rows; hashed keys may collide). Per
 * row (ascending) its word: key index in its side's postings · 2 + side.
 */
function derivableContextRows(
  ctx: { keys: Int32Array; vecs: Float32Array },
  packs: readonly PackedPostings[],
  vocab: readonly (readonly string[])[],
  wordsOf: (d: number, side: 0 | 1) => string[],
  stored: (row: Float32Array) => Float32Array,
): { rows: Int32Array; word: Int32Array } {
  const wordOf = new Map<number, number>();
  const keysOf = cachedDocKeys(wordsOf);
  for (const side of [0, 1] as const) {
    const p = packs[side];
    for (const w of vocab[side]) {
      const r = sortedIndexOf(ctx.keys, wordKey(side, w));
      const j = sortedIndexOf(p.keys, postingKey(w));
      if (r < 0 || j < 0 || p.df[j] > DERIVED_CONTEXT_MAX_DF || wordOf.has(r)) continue;
      const row = stored(ctx.vecs.subarray(r * DIM, r * DIM + DIM));
      const learned = stored(contextRowFromDocs(ctx.keys[r], postingDocs(p, j), keysOf));
      let same = true;
      for (let i = 0; same && i < DIM; i++) same = Object.is(row[i], learned[i]);
      if (same) wordOf.set(r, j * 2 + side);
    }
  }
  const rows = Int32Array.from(wordOf.keys()).sort();
  return { rows, word: Int32Array.from(rows, (r) => wordOf.get(r)!) };
}

/**
 * Pair ids given by a rule instead of a stored table (schema 6, meta `idRule`): a prefix and the pair's position from
 * a base number (`shp-0`, `shp-1`, …), or the SHA-256 (base64url) of the pair's texts, as ingestion names its pairs.
 */
type IdRule = { kind: 'sequence'; prefix: string; base: number } | { kind: 'pairHash' };

/** The id ingestion gives a pair (ingestion pair.repository `pairHash`). */
function pairHashId(source: string, target: string): string {
  return createHash('sha256').update(source).update('\u0000').update(target).digest('base64url');
}

/** The rule every id follows, if any. */
function idRuleOf(ids: readonly string[], src: readonly string[], tgt: readonly string[]): IdRule | null {
  if (!ids.length) return null;
  const m = /^(.*?)(0|[1-9]\d{0,14})$/.exec(ids[0]);
  if (m) {
    const prefix = m[1];
    const base = Number(m[2]);
    if (ids.every((id, d) => id === prefix + String(base + d))) return { kind: 'sequence', prefix, base };
  }
  return ids.every((id, d) => id === pairHashId(src[d], tgt[d])) ? { kind: 'pairHash' } : null;
}

/** Context rows learned again from texts when first needed (schema 6): their row indexes and how to learn each. */
interface DerivedRows {
  /** row indexes (ascending) */
  rows: Int32Array;
  /** row x of `rows`, dequantized; `keysOf` when many rows are learned at once (documents' keys remembered) */
  row: (x: number, keysOf?: (d: number) => DocKeys) => Float32Array;
  /** a keysOf remembering each document's keys (for learning every row) */
  keysCache: () => (d: number) => DocKeys;
  /** the documents row x is learned from */
  docs: (x: number) => number[];
}

/** Context vector rows (16-bit codes, or schema 8 integers) read block by block (a stored block is read on its first use). */
class StoredRows {
  private readonly blocks: (Int16Array | Int32Array | undefined)[];

  constructor(
    private readonly rowsPerBlock: number,
    count: number,
    private readonly read: (b: number) => Int16Array | Int32Array,
  ) {
    this.blocks = new Array<Int16Array | Int32Array | undefined>(count);
  }

  /** Row x times `scale` into out[at, at + DIM) (its block looked up once per row, not per component). */
  decodeRow(x: number, scale: number, out: Float32Array, at: number): void {
    const b = Math.floor(x / this.rowsPerBlock);
    const q = this.blocks[b] ?? (this.blocks[b] = this.read(b));
    const from = (x - b * this.rowsPerBlock) * DIM;
    for (let i = 0; i < DIM; i++) out[at + i] = q[from + i] * scale;
  }

  /** f's result; the blocks f reads that were not read before are let go again (reading every row once). */
  transiently<T>(f: () => T): T {
    // (the blocks not read yet are holes, which map and forEach would skip)
    const read = Array.from(this.blocks, (q) => q !== undefined);
    try {
      return f();
    } finally {
      read.forEach((was, b) => {
        if (!was) this.blocks[b] = undefined;
      });
    }
  }

  get byteSize(): number {
    let n = 0;
    for (const q of this.blocks) n += q?.byteLength ?? 0;
    return n;
  }
}

/**
 * The values of a document vector given by its codes (schema 7): the codes over their length (the vector is unit
 * length), each product rounded to float32. The sum of squares of integer codes is exact in any order.
 */
function codeRow(q: ArrayLike<number>, at: number, out: Float32Array, to: number): void {
  let ss = 0;
  for (let i = 0; i < DIM; i++) ss += q[at + i] * q[at + i];
  const scale = ss > 0 ? Math.fround(1 / Math.sqrt(ss)) : 0;
  for (let i = 0; i < DIM; i++) out[to + i] = q[at + i] * scale;
}

/**
 * The codes of document vector V[at, at + DIM) (its components over its largest one times DOC_VECTOR_CODE_MAX,
 * rounded) into codes[to, to + DIM); whether the vector is the values of its codes (`codeRow`).
 */
function toCodes(V: Float32Array, at: number, codes: Int8Array, to: number): boolean {
  codesOf(V, at, codes, to);
  let ss = 0;
  for (let i = 0; i < DIM; i++) ss += codes[to + i] * codes[to + i];
  const scale = ss > 0 ? Math.fround(1 / Math.sqrt(ss)) : 0;
  for (let i = 0; i < DIM; i++) if (!Object.is(Math.fround(codes[to + i] * scale), V[at + i])) return false;
  return true;
}

/** The codes of document vector V[at, at + DIM) into codes[to, to + DIM) (toCodes without its check). */
function codesOf(V: Float32Array, at: number, codes: Int8Array, to: number): void {
  let m = 0;
  for (let i = 0; i < DIM; i++) m = Math.max(m, Math.abs(V[at + i]));
  for (let i = 0; i < DIM; i++) codes[to + i] = m > 0 ? Math.round((V[at + i] / m) * DOC_VECTOR_CODE_MAX) : 0;
}

const snapCodes = new Int8Array(DIM);

/** Document vector V[at, at + DIM) replaced by the values of its codes (which has the same codes again). */
function snapToCodes(V: Float32Array, at: number): void {
  toCodes(V, at, snapCodes, 0);
  codeRow(snapCodes, 0, V, at);
}

/**
 * Documents repeated in the pairs have the same vector: each distinct one is stored once. Moves document d's row to
 * row `to` (`move`, in place: to ≤ d) when its key is new; each document's row and the number of distinct rows.
 */
function storeDistinctRows(n: number, keyOf: (d: number) => string, move: (to: number, d: number) => void): { rowOf: Int32Array; u: number } {
  const rowOf = new Int32Array(n);
  const seen = new Map<string, number>();
  let u = 0;
  for (let d = 0; d < n; d++) {
    const key = keyOf(d);
    const row = seen.get(key);
    if (row !== undefined) {
      rowOf[d] = row;
      continue;
    }
    seen.set(key, u);
    move(u, d);
    rowOf[d] = u++;
  }
  return { rowOf, u };
}

/** Document vectors as 16-bit codes (schema 6; vectors read from an older artifact and not computed since). */
function writeVectors(w: ArtifactWriter, name: string, v: Float32Array, n: number): void {
  const { q, scale } = quantizeVectors(v, n);
  const { rowOf, u } = storeDistinctRows(
    n,
    (d) => `${scale[d]} ${q.subarray(d * DIM, d * DIM + DIM).join(' ')}`,
    (to, d) => {
      q.copyWithin(to * DIM, d * DIM, d * DIM + DIM);
      scale[to] = scale[d];
    },
  );
  const packed = withoutLargestCode(q, scale, u);
  if (packed) w.raw(`${name}Q31`, packed.rest).raw(`${name}Max`, packed.max).raw(`${name}ScaleFix`, packed.scaleFix);
  else w.raw(`${name}Q`, q.slice(0, u * DIM)).raw(`${name}Scale`, scale.slice(0, u));
  w.uints(`${name}Row`, rowOf);
}

/** Document vectors as codes (schema 7, `snapToCodes`): each distinct row once (`Q8`), and each document's row. */
function writeDocVectors(w: ArtifactWriter, name: string, q: Int8Array, n: number): void {
  const { rowOf, u } = distinctCodes(q, n);
  w.raw(`${name}Q8`, q.slice(0, u * DIM)).uints(`${name}Row`, rowOf);
}

/**
 * Document vector codes (DIM per document) with each distinct row once: moved to the front in place, in the order first
 * seen; each document's row and the number of distinct rows (storeDistinctRows for 8-bit codes, keyed by a hash of
 * the codes instead of their text: a loaded index of schema 10 runs it on its first search).
 */
function distinctCodes(q: Int8Array, n: number): { rowOf: Int32Array; u: number } {
  const rowOf = new Int32Array(n);
  const rowsOfHash = new Map<number, number[]>();
  let u = 0;
  for (let d = 0; d < n; d++) {
    const at = d * DIM;
    let h = 0x811c9dc5;
    for (let i = 0; i < DIM; i++) h = Math.imul(h ^ (q[at + i] & 0xff), 0x01000193);
    const rows = rowsOfHash.get(h);
    const row = rows?.find((x) => {
      for (let i = 0; i < DIM; i++) if (q[x * DIM + i] !== q[at + i]) return false;
      return true;
    });
    if (row !== undefined) {
      rowOf[d] = row;
      continue;
    }
    q.copyWithin(u * DIM, at, at + DIM);
    if (rows) rows.push(u);
    else rowsOfHash.set(h, [u]);
    rowOf[d] = u++;
  }
  return { rowOf, u };
}

/** The rows a dense search scores from distinct code rows (`q`, DIM per row) and each document's row. */
function codeRows(q: Int8Array, rowOf: Int32Array): StoredDense {
  const count = q.length / DIM;
  const rows = new Float32Array(q.length);
  for (let x = 0; x < count; x++) codeRow(q, x * DIM, rows, x * DIM);
  return { rows, count, rowOf };
}

/** A side's postings as documents word after word (word j's are docs[from[j]] .. docs[from[j + 1] - 1]). */
interface FlatPostings {
  docs: Int32Array;
  from: Int32Array;
}

function flatPostings(p: PackedPostings): FlatPostings {
  const from = new Int32Array(p.df.length + 1);
  for (let j = 0; j < p.df.length; j++) from[j + 1] = from[j] + p.df[j];
  const docs = new Int32Array(from[p.df.length]);
  let o = 0;
  for (let j = 0; j < p.df.length; j++) {
    forPostings(p.bytes, p.start[j], p.start[j + 1], (d) => {
      docs[o++] = d;
    });
    if (o !== from[j + 1]) throw new ArtifactFormatError(`index postings are corrupt (${o - from[j]} documents for a count of ${p.df[j]})`);
  }
  return { docs, from };
}

/**
 * Per document, the sum of the index vectors of its context keys (DIM each), as docKeysOf sums them: the keys of both
 * sides' words (in key order) read from their postings. Exact when no two words share a key (docKeysOf counts a key
 * once per side, and a key both sides have twice).
 */
function docKeySums(n: number, sides: readonly { words: readonly string[]; flat: FlatPostings }[]): Float32Array {
  const sums = new Float32Array(n * DIM);
  const iv = new Float32Array(DIM);
  const at: number[] = [];
  sides.forEach(({ words, flat }, side) => {
    for (let j = 0; j < words.length; j++) {
      iv.fill(0);
      addIndexVector(wordKey(side as 0 | 1, words[j]), iv, 0, 1);
      at.length = 0;
      for (let i = 0; i < DIM; i++) if (iv[i] !== 0) at.push(i);
      for (let o = flat.from[j]; o < flat.from[j + 1]; o++) for (const i of at) sums[flat.docs[o] * DIM + i] += iv[i];
    }
  });
  return sums;
}

/** Whether no two words of the two sides share a context key (docKeySums is then exact). */
function distinctWordKeys(sides: readonly (readonly string[])[]): boolean {
  const keys = new Set<number>();
  let n = 0;
  sides.forEach((words, side) => {
    n += words.length;
    for (const w of words) keys.add(wordKey(side as 0 | 1, w));
  });
  return keys.size === n;
}

/**
 * The document vector codes of one side computed from its postings (schema 10): a document's vector is what `embed`
 * makes of its distinct words (their idf-weighted unit context rows summed, then made unit length), as codes
 * (`toCodes`). `rows` holds the context row of word j at j · DIM (`has[j]`: whether it has one), `df` its document
 * count. The words of a document are summed in key order, not in text order, so a code may differ by rounding from the
 * one `embedDoc` computed: the writer stores those as fixes.
 */
function derivedDocCodes(n: number, flat: FlatPostings, df: Int32Array, rows: Float32Array, has: Uint8Array): Int8Array {
  const V = new Float32Array(n * DIM);
  const N = Math.max(1, n);
  for (let j = 0; j < has.length; j++) {
    if (!has[j]) continue;
    const c = j * DIM;
    const idf = Math.log(1 + N / Math.max(1, df[j]));
    let norm = 0;
    for (let i = 0; i < DIM; i++) norm += rows[c + i] * rows[c + i];
    if (norm === 0) continue;
    const k = idf / Math.sqrt(norm);
    for (let o = flat.from[j]; o < flat.from[j + 1]; o++) {
      const at = flat.docs[o] * DIM;
      for (let i = 0; i < DIM; i++) V[at + i] += k * rows[c + i];
    }
  }
  // made unit length in place (each value rounded to float32, as embed's vector), then coded
  const codes = new Int8Array(n * DIM);
  for (let at = 0; at < n * DIM; at += DIM) {
    let n2 = 0;
    for (let i = 0; i < DIM; i++) n2 += V[at + i] * V[at + i];
    n2 = Math.sqrt(n2) || 1;
    for (let i = 0; i < DIM; i++) V[at + i] /= n2;
    codesOf(V, at, codes, at);
  }
  return codes;
}

/** Documents (ascending) whose codes differ between a and b. */
function differingDocs(a: Int8Array, b: Int8Array, n: number): number[] {
  const out: number[] = [];
  for (let d = 0; d < n; d++)
    for (let i = d * DIM; i < d * DIM + DIM; i++)
      if (a[i] !== b[i]) {
        out.push(d);
        break;
      }
  return out;
}

/**
 * Schema 10: a side's document vectors as its postings give them (meta `vec<side>Derived`), and the codes of the
 * documents they do not give (`FixDoc`: the documents, ascending; `FixQ8`: their codes).
 */
function writeDerivedDocVectors(w: ArtifactWriter, name: string, q: Int8Array, fixes: readonly number[]): void {
  w.meta(`${name}Derived`, true);
  if (!fixes.length) return;
  const codes = new Int8Array(fixes.length * DIM);
  fixes.forEach((d, x) => codes.set(q.subarray(d * DIM, d * DIM + DIM), x * DIM));
  w.uints(`${name}FixDoc`, fixes).raw(`${name}FixQ8`, codes);
}

/** Marker of a 16-bit vector row whose codes are all zero (a document without embedded words). */
const ZERO_ROW = 255;
const F32_BITS = new Float32Array(1);
const BITS_F32 = new Int32Array(F32_BITS.buffer);

/** The 32-bit pattern of a float32 value, and back. */
function bitsOf(x: number): number {
  F32_BITS[0] = x;
  return BITS_F32[0];
}

function floatOfBits(b: number): number {
  BITS_F32[0] = b;
  return F32_BITS[0];
}

/**
 * A vector row's scale predicted from its codes: the vectors are unit length, so scale ≈ 1 / ‖codes‖ (within a few
 * hundred float32 steps; the difference of the bit patterns is stored).
 */
function predictedScale(q: ArrayLike<number>, at: number): number {
  let ss = 0;
  for (let i = 0; i < DIM; i++) ss += q[at + i] * q[at + i];
  return ss > 0 ? Math.fround(1 / Math.sqrt(ss)) : 0;
}

/**
 * Schema 6: the largest code of a row is ±Q16 (a row is scaled by its largest value), so it is stored as its position
 * and sign (`Max`, one byte) and the row's 31 other codes (`Q31`); the scale as the difference to the one predicted from
 * the codes (`ScaleFix`). Null when a row does not have that form (the rows are stored whole then).
 */
function withoutLargestCode(q: Int16Array, scale: Float32Array, u: number): { rest: Int16Array; max: Uint8Array; scaleFix: Int16Array | Int32Array } | null {
  const rest = new Int16Array(u * (DIM - 1));
  const max = new Uint8Array(u);
  const fix = new Int32Array(u);
  let small = true;
  for (let x = 0; x < u; x++) {
    const at = x * DIM;
    let m = -1;
    for (let i = 0; i < DIM && m < 0; i++) if (Math.abs(q[at + i]) === VECTOR_CODE_MAX) m = i;
    if (m < 0) {
      for (let i = 0; i < DIM; i++) if (q[at + i] !== 0) return null;
      max[x] = ZERO_ROW;
    } else max[x] = m * 2 + (q[at + m] < 0 ? 1 : 0);
    const skip = m < 0 ? 0 : m;
    for (let i = 0, k = x * (DIM - 1); i < DIM; i++) if (i !== skip) rest[k++] = q[at + i];
    fix[x] = bitsOf(scale[x]) - bitsOf(predictedScale(q, at));
    if (fix[x] < -VECTOR_CODE_MAX - 1 || fix[x] > VECTOR_CODE_MAX) small = false;
  }
  return { rest, max, scaleFix: small ? Int16Array.from(fix) : fix };
}

/**
 * Document vectors of schema 5 on (distinct rows, dequantized, and the row of each document): the rows a search scores
 * as they are stored, with no vector per document. Null when the rows are stored one per document (older schemas).
 */
function readVectorRows(r: ArtifactReader, name: string): StoredDense | null {
  if (!r.has(`${name}Row`)) return null;
  const rowOf = r.int32(`${name}Row`);
  if (r.has(`${name}Q8`)) return codeRows(r.raw<Int8Array>(`${name}Q8`), rowOf);
  if (!r.has(`${name}Max`)) {
    const q = r.raw<Int16Array>(`${name}Q`);
    const scale = r.raw<Float32Array>(`${name}Scale`);
    const rows = new Float32Array(scale.length * DIM);
    for (let x = 0; x < scale.length; x++) for (let i = 0; i < DIM; i++) rows[x * DIM + i] = q[x * DIM + i] * scale[x];
    return { rows, count: scale.length, rowOf };
  }
  // the rows of `withoutLargestCode` whole again, read from the stored codes: the predicted scale's sum of squares of
  // 16-bit codes is an exact integer in any order (the largest code's square added first)
  const rest = r.raw<Int16Array>(`${name}Q31`);
  const max = r.raw<Uint8Array>(`${name}Max`);
  const scaleFix = r.int32(`${name}ScaleFix`);
  const u = max.length;
  const rows = new Float32Array(u * DIM);
  for (let x = 0; x < u; x++) {
    const zero = max[x] === ZERO_ROW;
    const m = zero ? 0 : max[x] >> 1;
    const top = zero ? 0 : max[x] & 1 ? -VECTOR_CODE_MAX : VECTOR_CODE_MAX;
    const k = x * (DIM - 1);
    let ss = top * top;
    for (let i = 0; i < DIM - 1; i++) ss += rest[k + i] * rest[k + i];
    const scale = floatOfBits(bitsOf(ss > 0 ? Math.fround(1 / Math.sqrt(ss)) : 0) + scaleFix[x]);
    const at = x * DIM;
    for (let i = 0; i < m; i++) rows[at + i] = rest[k + i] * scale;
    rows[at + m] = top * scale;
    for (let i = m + 1; i < DIM; i++) rows[at + i] = rest[k + i - 1] * scale;
  }
  return { rows, count: u, rowOf };
}

/** Document vectors stored one per document (schema < 5) into out. */
function readVectors(r: ArtifactReader, name: string, out: Float32Array): void {
  const q = r.raw<Int16Array>(`${name}Q`);
  const scale = r.raw<Float32Array>(`${name}Scale`);
  for (let d = 0; d < scale.length; d++) for (let i = 0; i < DIM; i++) out[d * DIM + i] = q[d * DIM + i] * scale[d];
}

/**
 * Texts of the documents. Schema 5: the distinct texts in blocks of TEXT_BLOCK (a block is inflated when a hit first
 * needs one of its texts) and each document's entry among them; schema 4: one table, a text per document.
 */
class DocTexts {
  private readonly blocks: (StringTable | undefined)[];

  constructor(
    private readonly block: (b: number) => StringTable,
    blocks: number,
    private readonly of: Int32Array | null,
    /** stored bytes held until every block is read */
    private readonly storedBytes: number,
  ) {
    this.blocks = new Array<StringTable | undefined>(blocks);
  }

  get(d: number): string {
    const x = this.of ? this.of[d] : d;
    const b = this.of ? Math.floor(x / TEXT_BLOCK) : 0;
    const table = this.blocks[b] ?? (this.blocks[b] = this.block(b));
    return table.get(this.of ? x % TEXT_BLOCK : x);
  }

  get byteSize(): number {
    let b = this.storedBytes + (this.of?.byteLength ?? 0);
    for (const t of this.blocks) b += t?.byteSize ?? 0;
    return b;
  }
}

/** Distinct texts in first-seen order, and the position of each text among them. */
function distinctTexts(texts: string[]): { list: string[]; of: Int32Array } {
  const at = new Map<string, number>();
  const list: string[] = [];
  const of = new Int32Array(texts.length);
  texts.forEach((t, i) => {
    let k = at.get(t);
    if (k === undefined) {
      k = list.length;
      at.set(t, k);
      list.push(t);
    }
    of[i] = k;
  });
  return { list, of };
}

/** Sparse ternary random index vector of a key (4 non-zeros), added into out × w. */
function addIndexVector(h: number, out: Float32Array, off: number, w: number): void {
  for (let k = 0; k < 4; k++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    const pos = h % DIM;
    out[off + pos] += (h & 0x10000) === 0 ? w : -w;
  }
}

class Side {
  word = new PostingField();
  char = new PostingField();
}

/** Learned context vectors keyed by hashed (side, word): a sorted base block plus additions. */
class ContextVectors {
  baseKeys: Int32Array = new Int32Array(0);
  private baseVecs: Float32Array | null = new Float32Array(0);
  /** a loaded index's vectors as stored (16-bit codes and scales, or integers): decoded one by one for queries, all at once before a change */
  private quantized: { q: StoredRows; scale: Float32Array | null; derived: DerivedRows | null } | null = null;
  /** derived rows learned so far (schema 6), by row */
  private learned = new Map<number, Float32Array>();
  extra = new Map<number, Float32Array>();

  load(keys: Int32Array, vecs: Float32Array | null, quantized: { q: StoredRows; scale: Float32Array | null; derived: DerivedRows | null } | null): void {
    this.baseKeys = keys;
    this.baseVecs = vecs;
    this.quantized = quantized;
    this.learned = new Map();
  }

  get byteSize(): number {
    return (
      this.baseKeys.byteLength +
      (this.baseVecs?.byteLength ?? 0) +
      (this.quantized ? this.quantized.q.byteSize + (this.quantized.scale?.byteLength ?? 0) + (this.quantized.derived?.rows.byteLength ?? 0) : 0) +
      this.learned.size * (DIM * 4 + 48)
    );
  }

  get(k: number): Float32Array | undefined {
    const b = sortedIndexOf(this.baseKeys, k);
    if (b >= 0) {
      if (this.baseVecs) return this.baseVecs.subarray(b * DIM, b * DIM + DIM);
      const out = new Float32Array(DIM);
      this.decodeRow(b, out, 0);
      return out;
    }
    return this.extra.get(k);
  }

  /**
   * The rows of `keys` at once (key i's at i · DIM; `has[i]`: whether it has one), for reading every row of a side
   * once: a row learned again is taken from its documents' key sums (`docSums`, docKeySums) less its own index vector,
   * as contextRowFromDocs learns it, and not kept; the stored blocks it reads are not kept either.
   */
  rowsOf(keys: Int32Array, docSums: Float32Array): { rows: Float32Array; has: Uint8Array } {
    return this.quantized ? this.quantized.q.transiently(() => this.rowsNow(keys, docSums)) : this.rowsNow(keys, docSums);
  }

  private rowsNow(keys: Int32Array, docSums: Float32Array): { rows: Float32Array; has: Uint8Array } {
    const rows = new Float32Array(keys.length * DIM);
    const has = new Uint8Array(keys.length);
    const derived = this.quantized?.derived ?? null;
    for (let i = 0; i < keys.length; i++) {
      const at = i * DIM;
      const b = sortedIndexOf(this.baseKeys, keys[i]);
      if (b < 0) {
        const e = this.extra.get(keys[i]);
        if (e) rows.set(e, at);
        has[i] = e ? 1 : 0;
        continue;
      }
      has[i] = 1;
      if (this.baseVecs) {
        rows.set(this.baseVecs.subarray(b * DIM, b * DIM + DIM), at);
        continue;
      }
      const x = derived ? sortedIndexOf(derived.rows, b) : -1;
      if (x < 0 || this.learned.has(b)) {
        this.decodeRow(b, rows, at);
        continue;
      }
      for (const d of derived!.docs(x)) {
        for (let c = 0; c < DIM; c++) rows[at + c] += docSums[d * DIM + c];
        addIndexVector(keys[i], rows, at, -1);
      }
    }
    return { rows, has };
  }

  /** Row b of a loaded index into out[at, at + DIM): stored (its rank among the stored rows) or learned again. */
  private decodeRow(b: number, out: Float32Array, at: number): void {
    const { q, scale, derived } = this.quantized!;
    if (!derived) {
      q.decodeRow(b, scale ? scale[b] : 1, out, at);
      return;
    }
    const x = sortedIndexOf(derived.rows, b);
    if (x < 0) {
      const rank = b - countBelow(derived.rows, b);
      q.decodeRow(rank, scale ? scale[rank] : 1, out, at);
      return;
    }
    let row = this.learned.get(b);
    if (!row) this.learned.set(b, (row = derived.row(x)));
    out.set(row, at);
  }

  private decoded(): Float32Array {
    if (!this.baseVecs) {
      const v = new Float32Array(this.baseKeys.length * DIM);
      // every learned row at once: each document's texts tokenized once, not once per row of one of its words
      const derived = this.quantized!.derived;
      if (derived) {
        const keysOf = derived.keysCache();
        derived.rows.forEach((b, x) => {
          if (!this.learned.has(b)) this.learned.set(b, derived.row(x, keysOf));
        });
      }
      for (let d = 0; d < this.baseKeys.length; d++) this.decodeRow(d, v, d * DIM);
      this.baseVecs = v;
      this.quantized = null;
      this.learned = new Map();
    }
    return this.baseVecs;
  }

  getOrCreate(k: number): Float32Array {
    this.decoded();
    let v = this.get(k);
    if (!v) this.extra.set(k, (v = new Float32Array(DIM)));
    return v;
  }

  pack(): { keys: Int32Array; vecs: Float32Array } {
    const all = new Map<number, Float32Array>();
    const base = this.decoded();
    for (let b = 0; b < this.baseKeys.length; b++) all.set(this.baseKeys[b], base.subarray(b * DIM, b * DIM + DIM));
    for (const [k, v] of this.extra) all.set(k, v);
    const keys = Int32Array.from(all.keys()).sort();
    const vecs = new Float32Array(keys.length * DIM);
    keys.forEach((k, i) => vecs.set(all.get(k)!, i * DIM));
    return { keys, vecs };
  }
}

function wordKey(side: 0 | 1, w: string): number {
  return hash32(w, side === 0 ? 0x9e3779b9 : 0x85ebca6b) & 0x7fffffff;
}

function postingKey(w: string): number {
  return hash32(w, 0x811c9dc5 ^ WORD_SALT) & 0x7fffffff;
}

/**
 * Schema of the `INDX` artifact written by `HybridIndex.serialize` (container: artifact-codec). 5: the texts of the
 * pairs and the document vectors are stored once per distinct value (`srcText` + `srcOf`, `vec0Row`). 6: the context
 * rows of rare words are not stored but learned again from their documents' texts (`ctxDerived`, `ctxDerivedWord`;
 * the `ctxQ` blocks hold the other rows only): an engine reading schema 5 would take stored rows for the wrong words.
 * Also from 6: document vector rows without their largest code (`vec0Q31`, `vec0Max`, `vec0ScaleFix`), pair ids by a
 * rule (meta `idRule`) and n-gram lengths derived from the word lengths when they are those. 7: document vectors as
 * one signed byte per component (`vec0Q8`, the values those codes give, which the index that wrote them searched too).
 * 8: context rows of integers stored exactly (meta `ctxIntegers`, blocks `ctxZ0`, `ctxZ1`, … of zig-zag values, no
 * scales); rows learned again are then not requantized either. 9: a side whose every word key is the key of one word
 * stores its words in key order (`words<side>`, meta `gramSizes<side>`) instead of the word keys, the gram keys and
 * the gram lists (`wordKeys`, `gramKeys`, `gramStart`, `gramWordKeyGap`, `gramMult`): its keys are the words' hashes and
 * its gram lists the words' n-grams (gram-terms `wordGrams`), derived when the side is first searched. The lists were
 * a third of a small agent's index (aym 1.3 of 3.1 MB); the words take a sixth of that. 10: an index of at most
 * DERIVED_DOC_VECTORS_MAX_POSTINGS postings whose sides store their words may store no document vectors (meta
 * `vec<side>Derived`): they are computed again from the postings and the context rows on the first search, and the
 * few that come out otherwise are stored (`vec<side>FixDoc`, `vec<side>FixQ8`); an engine reading schema 9 would find
 * no vectors.
 */
export const INDEX_SCHEMA = 10;
/** Schema 3 (a private copy of the gram side's word postings) still loads. */
const MIN_INDEX_SCHEMA = 3;
const INDEX_KIND = 'INDX';

interface LegacyIndexHeader {
  ids: string[];
  src: string[];
  tgt: string[];
  parts: (number[] | null)[];
}

/** A legacy blob's postings, several CSR blocks concatenated (keys may repeat across blocks). */
function splitLegacySegments(seg: Segment, parts: number[] | null | undefined): Segment[] {
  if (!parts) return [seg];
  const out: Segment[] = [];
  let k = 0;
  let o = 0;
  for (const nk of parts) {
    const off = seg.off.subarray(o, o + nk + 1);
    const base = off[0];
    out.push({ keys: seg.keys.subarray(k, k + nk), off: off.map((x) => x - base), doc: seg.doc.subarray(base, off[nk]), tf: seg.tf.subarray(base, off[nk]) });
    k += nk;
    o += nk + 1;
  }
  return out;
}

export class HybridIndex {
  /** a loaded artifact's ids given by a rule (idRule) are filled on first use */
  private ids: (string | undefined)[] = [];
  private idRule: ((d: number) => string) | null = null;
  /** texts added in memory; those of a loaded artifact stay in its string tables until a hit needs them */
  private src: string[] = [];
  private tgt: string[] = [];
  /** a loaded artifact's texts, read on the first hit */
  private storedTexts: (() => { src: DocTexts; tgt: DocTexts }) | null = null;
  private storedCache: { src: DocTexts; tgt: DocTexts } | null = null;
  /** a loaded artifact's sides (postings, n-grams, document vectors), decoded on the first search of that side */
  private pendingSides: [(() => void) | null, (() => void) | null] = [null, null];
  /** a loaded artifact's context vectors, read on the first embedding */
  private pendingContext: (() => void) | null = null;
  /** bytes a pending side will hold once decoded, and the texts and context vectors (memory budgets) */
  private pendingBytes: [number, number] = [0, 0];
  private pendingOtherBytes = 0;
  private alive = new Uint8Array(1024);
  /** document of each live id; a loaded index builds it on first use (has, get, add, remove) */
  private byIdMap: Map<string, number> | null = new Map();
  private sides: [Side, Side] = [new Side(), new Side()];
  private ctx = new ContextVectors();
  /** per side: each document's vector (DIM floats from d · DIM), allocated on first use (docVecs) */
  private vecs: [Float32Array, Float32Array] = [new Float32Array(0), new Float32Array(0)];
  /**
   * per side: a loaded artifact's distinct document vectors and each document's row, searched as they are until a
   * document vector is needed one by one (docVecs: documents added, re-embedded, serialized)
   */
  private storedDense: [StoredDense | null, StoredDense | null] = [null, null];
  /** per side: a loaded artifact's document vectors computed again from its postings (schema 10) on first use */
  private pendingDense: [(() => StoredDense) | null, (() => StoredDense) | null] = [null, null];
  private embedded = new Uint8Array(1024);
  /** writes into the document vectors (the distinct rows the dense search scores are derived again after one) */
  private vecWrites = 0;
  /** per side: the distinct document vectors and each document's row among them, derived on a search */
  private denseRows: [DenseRows | null, DenseRows | null] = [null, null];
  /** some live document may lack its vector (documents just added): the next search looks for them */
  private unembedded = false;
  private addedSinceEmbed = 0;
  private liveCount = 0;

  get size(): number {
    return this.liveCount;
  }

  private get stored(): { src: DocTexts; tgt: DocTexts } | null {
    if (!this.storedCache && this.storedTexts) {
      this.storedCache = this.storedTexts();
      this.storedTexts = null;
    }
    return this.storedCache;
  }

  private srcAt(d: number): string {
    return this.src[d] ?? this.stored!.src.get(d);
  }

  private tgtAt(d: number): string {
    return this.tgt[d] ?? this.stored!.tgt.get(d);
  }

  /** Decodes a loaded artifact's side (and the context vectors) before its first use. */
  private ready(side: 0 | 1): void {
    const load = this.pendingSides[side];
    if (load) {
      this.pendingSides[side] = null;
      this.pendingBytes[side] = 0;
      load();
    }
    if (this.pendingContext) {
      const ctx = this.pendingContext;
      this.pendingContext = null;
      ctx();
    }
  }

  /** A side's document vectors as a loaded artifact gives them (computed from the context it was written with). */
  private denseReady(side: 0 | 1): void {
    const derive = this.pendingDense[side];
    if (!derive) return;
    this.pendingDense[side] = null;
    this.ready(side);
    this.storedDense[side] = derive();
  }

  /** Everything a loaded artifact holds decoded (before a change: the document vectors first, from the context as loaded). */
  private readyAll(): void {
    this.ready(0);
    this.ready(1);
    this.denseReady(0);
    this.denseReady(1);
  }

  private idAt(d: number): string {
    let id = this.ids[d];
    if (id === undefined) this.ids[d] = id = this.idRule!(d);
    return id;
  }

  private get byId(): Map<string, number> {
    if (!this.byIdMap) {
      const m = new Map<string, number>();
      for (let d = 0; d < this.ids.length; d++) if (this.alive[d]) m.set(this.idAt(d), d);
      this.byIdMap = m;
    }
    return this.byIdMap;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): ParallelPair | undefined {
    const d = this.byId.get(id);
    return d === undefined ? undefined : { id, source: this.srcAt(d), target: this.tgtAt(d) };
  }

  pairs(): ParallelPair[] {
    const out: ParallelPair[] = [];
    for (let d = 0; d < this.ids.length; d++) if (this.alive[d]) out.push({ id: this.idAt(d), source: this.srcAt(d), target: this.tgtAt(d) });
    return out;
  }

  private grow(n: number): void {
    if (n <= this.alive.length) return;
    let cap = this.alive.length;
    while (cap < n) cap *= 2;
    const a = new Uint8Array(cap);
    a.set(this.alive);
    this.alive = a;
    const e = new Uint8Array(cap);
    e.set(this.embedded);
    this.embedded = e;
    for (let s = 0; s < 2; s++) {
      this.sides[s].word.grow(cap);
      this.sides[s].char.grow(cap);
    }
  }

  /** The document vectors of a side, for every document slot (a loaded artifact's rows written out per document). */
  private docVecs(side: 0 | 1): Float32Array {
    this.denseReady(side);
    const cap = this.alive.length * DIM;
    if (this.vecs[side].length < cap) {
      const v = new Float32Array(cap);
      v.set(this.vecs[side]);
      this.vecs[side] = v;
    }
    const stored = this.storedDense[side];
    if (stored) {
      this.storedDense[side] = null;
      const { rows, rowOf } = stored;
      const V = this.vecs[side];
      for (let d = 0; d < rowOf.length; d++) V.set(rows.subarray(rowOf[d] * DIM, rowOf[d] * DIM + DIM), d * DIM);
    }
    return this.vecs[side];
  }

  private learnContext(sw: string[], tw: string[], sign: number): void {
    const sum = new Float32Array(DIM);
    const keys = [...new Set(sw.map((w) => wordKey(0, w))), ...new Set(tw.map((w) => wordKey(1, w)))];
    for (const k of keys) addIndexVector(k, sum, 0, 1);
    for (const k of keys) {
      const c = this.ctx.getOrCreate(k);
      for (let i = 0; i < DIM; i++) c[i] += sign * sum[i];
      addIndexVector(k, c, 0, -sign); // exclude self
    }
  }

  /** Dimension of the dense vectors (random indexing learned from the corpus itself). */
  static readonly dimension = DIM;

  /**
   * The dense, L2-normalised vector of a text on one side — the same embedding the index searches with —
   * for an external k-NN index (OpenSearch) to store next to the text.
   */
  embedText(text: string, side: 'source' | 'target' = 'source'): number[] {
    const out = new Float32Array(DIM);
    this.embed(indexWords(text), side === 'source' ? 0 : 1, out, 0);
    return Array.from(out, (x) => Math.round(x * 1e6) / 1e6);
  }

  private embed(words: string[], side: 0 | 1, out: Float32Array, off: number): void {
    this.ready(side);
    const f = this.sides[side].word;
    const N = Math.max(1, f.live);
    for (let i = 0; i < DIM; i++) out[off + i] = 0;
    for (const w of new Set(words)) {
      const c = this.ctx.get(wordKey(side, w));
      if (!c) continue;
      const df = Math.max(1, f.df(postingKey(w)));
      const idf = Math.log(1 + N / df);
      let norm = 0;
      for (let i = 0; i < DIM; i++) norm += c[i] * c[i];
      if (norm === 0) continue;
      const k = idf / Math.sqrt(norm);
      for (let i = 0; i < DIM; i++) out[off + i] += k * c[i];
    }
    let n2 = 0;
    for (let i = 0; i < DIM; i++) n2 += out[off + i] * out[off + i];
    n2 = Math.sqrt(n2) || 1;
    for (let i = 0; i < DIM; i++) out[off + i] /= n2;
  }

  private embedDoc(d: number): void {
    this.embed(indexWords(this.srcAt(d)), 0, this.docVecs(0), d * DIM);
    this.embed(indexWords(this.tgtAt(d)), 1, this.docVecs(1), d * DIM);
    snapToCodes(this.docVecs(0), d * DIM);
    snapToCodes(this.docVecs(1), d * DIM);
    this.embedded[d] = 1;
    this.vecWrites++;
  }

  /** Re-embeds every document when much has been learned since the vectors were computed. */
  private refreshVectors(): void {
    if (this.addedSinceEmbed > 0.3 * this.liveCount) {
      for (let d = 0; d < this.ids.length; d++) if (this.alive[d]) this.embedDoc(d);
      this.addedSinceEmbed = 0;
    } else if (this.unembedded) {
      for (let d = 0; d < this.ids.length; d++) if (this.alive[d] && !this.embedded[d]) this.embedDoc(d);
    }
    this.unembedded = false;
  }

  add(pairs: ParallelPair[]): void {
    this.readyAll();
    const toRemove = pairs.filter((p) => this.byId.has(p.id)).map((p) => p.id);
    if (toRemove.length) this.remove(toRemove);
    this.grow(this.ids.length + pairs.length);
    const batch: [number, string[], string[]][] = [];
    for (const p of pairs) {
      const d = this.ids.length;
      this.ids.push(p.id);
      this.src.push(p.source);
      this.tgt.push(p.target);
      this.alive[d] = 1;
      this.embedded[d] = 0;
      this.unembedded = true;
      this.byId.set(p.id, d);
      const sw = indexWords(p.source);
      const tw = indexWords(p.target);
      this.sides[0].word.addDoc(d, countTerms(sw, WORD_SALT), sw.length);
      this.sides[0].char.addDoc(d, countTerms(charGrams(sw), CHAR_SALT), Math.max(1, sw.length));
      this.sides[1].word.addDoc(d, countTerms(tw, WORD_SALT), tw.length);
      this.sides[1].char.addDoc(d, countTerms(charGrams(tw), CHAR_SALT), Math.max(1, tw.length));
      this.learnContext(sw, tw, 1);
      batch.push([d, sw, tw]);
      this.liveCount++;
    }
    for (const s of this.sides) {
      s.word.flush();
      s.char.flush();
    }
    // embed the batch with the context it just taught; a large batch makes older vectors stale
    for (const [d, sw, tw] of batch) {
      this.embed(sw, 0, this.docVecs(0), d * DIM);
      this.embed(tw, 1, this.docVecs(1), d * DIM);
      snapToCodes(this.docVecs(0), d * DIM);
      snapToCodes(this.docVecs(1), d * DIM);
      this.embedded[d] = 1;
    }
    this.vecWrites++;
    if (batch.length >= 0.5 * this.liveCount) this.addedSinceEmbed = 0;
    else this.addedSinceEmbed += batch.length;
  }

  remove(ids: string[]): void {
    this.readyAll();
    for (const id of ids) {
      const d = this.byId.get(id);
      if (d === undefined) continue;
      const sw = indexWords(this.srcAt(d));
      const tw = indexWords(this.tgtAt(d));
      this.sides[0].word.removeDoc(d, countTerms(sw, WORD_SALT));
      this.sides[0].char.removeDoc(d, countTerms(charGrams(sw), CHAR_SALT));
      this.sides[1].word.removeDoc(d, countTerms(tw, WORD_SALT));
      this.sides[1].char.removeDoc(d, countTerms(charGrams(tw), CHAR_SALT));
      this.learnContext(sw, tw, -1);
      this.alive[d] = 0;
      this.embedded[d] = 0;
      this.byId.delete(id);
      this.liveCount--;
    }
  }

  /** The FIELD_TOP live documents nearest the query vector q (every live document offered in document order). */
  private denseTop(side: 0 | 1, q: Float32Array, n: number, top: TopK): number[] {
    this.denseReady(side);
    // a loaded artifact's rows while no document vector was written (the documents are those it stored)
    let rows: { rows: Float32Array; count: number; rowOf: Int32Array } | null = this.storedDense[side];
    if (!rows) {
      let derived = this.denseRows[side];
      const V = this.docVecs(side);
      if (!derived || derived.vecs !== V || derived.writes !== this.vecWrites || derived.n !== n) {
        derived = { vecs: V, writes: this.vecWrites, n, ...distinctRows(V, n) };
        this.denseRows[side] = derived;
      }
      rows = derived;
    }
    const rowScore = rowScoreScratch(rows.count);
    denseScores(q, rows.rows, rows.count, rowScore);
    return top.selectRows(rowScore, rows.rowOf, this.liveCount < n ? this.alive : null, n);
  }

  search(query: string, k: number, opts?: { side?: 'source' | 'target' }): RetrievalHit[] {
    if (this.liveCount === 0 || k <= 0) return [];
    const side: 0 | 1 = opts?.side === 'target' ? 1 : 0;
    this.ready(side);
    this.refreshVectors();
    const S = this.sides[side];
    const words = indexWords(query);
    if (!words.length) return [];
    const n = this.ids.length;
    const acc = scoreScratch(n);
    const touched = touchedScratch(n);
    const rankings: { list: number[]; weight: number }[] = [];
    // each field scores from zero (one fill: cheaper than zeroing the documents touched, scattered over acc)
    acc.fill(0, 0, n);
    // documents removed since the index was built or loaded still have postings: taken out of the results then
    const alive = this.liveCount < n ? this.alive : null;
    let nt = S.word.score(countTerms(words, WORD_SALT), alive, acc, touched, 0, 0.35);
    rankings.push({ list: fieldTop.selectIndexed(acc, touched, nt), weight: 1 });
    acc.fill(0, 0, n);
    nt = S.char.score(gramTermCounts(words, CHAR_SALT), alive, acc, touched, 0, 0.12);
    rankings.push({ list: fieldTop.selectIndexed(acc, touched, nt), weight: 1 });
    // dense
    const q = new Float32Array(DIM);
    this.embed(words, side, q, 0);
    let qn = 0;
    for (let i = 0; i < DIM; i++) qn += q[i] * q[i];
    if (qn > 0) {
      rankings.push({ list: this.denseTop(side, q, n, fieldTop), weight: 0.5 });
    }
    const fused = new Map<number, number>();
    for (const r of rankings) r.list.forEach((d, rank) => fused.set(d, (fused.get(d) ?? 0) + r.weight / (RRF_K + rank + 1)));
    const top = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, k);
    const qset = new Set(words);
    return top.map(([d, score]) => {
      const text = side === 0 ? this.srcAt(d) : this.tgtAt(d);
      const dw = new Set(indexWords(text));
      return {
        id: this.idAt(d),
        score,
        source: this.srcAt(d),
        target: this.tgtAt(d),
        matchedTerms: [...qset].filter((w) => dw.has(w)),
      };
    });
  }

  /** The compact `INDX` artifact of the live pairs (documents renumbered densely). */
  serialize(): Uint8Array {
    this.readyAll();
    this.refreshVectors();
    const map = new Int32Array(this.ids.length).fill(-1);
    const ids: string[] = [];
    const src: string[] = [];
    const tgt: string[] = [];
    for (let d = 0; d < this.ids.length; d++) {
      if (!this.alive[d]) continue;
      map[d] = ids.length;
      ids.push(this.idAt(d));
      src.push(this.srcAt(d));
      tgt.push(this.tgtAt(d));
    }
    const n = ids.length;
    const w = new ArtifactWriter(INDEX_KIND, INDEX_SCHEMA);
    const rule = idRuleOf(ids, src, tgt);
    if (rule) w.meta('idRule', rule);
    else w.strings('ids', ids);
    for (const [name, texts] of [
      ['src', src],
      ['tgt', tgt],
    ] as const) {
      const t = distinctTexts(texts);
      const blocks = Math.ceil(t.list.length / TEXT_BLOCK);
      w.meta(`${name}TextBlocks`, blocks).uints(`${name}Of`, t.of);
      for (let b = 0; b < blocks; b++) w.strings(`${name}Text${b}`, t.list.slice(b * TEXT_BLOCK, (b + 1) * TEXT_BLOCK));
    }
    const lens = (f: PostingField): Int32Array => {
      const out = new Int32Array(n);
      for (let d = 0; d < this.ids.length; d++) if (map[d] >= 0) out[map[d]] = f.docLen[d];
      return out;
    };
    const words = [src.map(indexWords), tgt.map(indexWords)];
    const packs: PackedPostings[] = [];
    const vocab: string[][] = [];
    /** per side: its words in key order when it stores them (schema 9) */
    const keyOrderWords: (string[] | null)[] = [];
    this.sides.forEach((s, side) => {
      const p = s.word.pack(map);
      packs.push(p);
      w.uints(`wordDf${side}`, p.df).offsets(`wordStart${side}`, p.start).raw(`wordPost${side}`, p.bytes);
      const wordLen = lens(s.word);
      w.uints(`wordLen${side}`, wordLen);
      const g = buildGramPostings(words[side]);
      vocab.push(g.words);
      w.uints(`gramDf${side}`, g.df);
      const toKey = wordKeyIndexes(g, p);
      const inKeyOrder = toKey && wordsInKeyOrder(g.words, toKey, p.keys.length);
      keyOrderWords.push(inKeyOrder || null);
      if (inKeyOrder) {
        // schema 9: the words themselves, in key order; their keys and gram lists are derived when the side is loaded
        w.strings(`words${side}`, inKeyOrder).meta(`gramSizes${side}`, { grams: g.keys.length, entries: g.gWord.length } satisfies GramSizes);
      } else {
        w.offsets(`wordKeys${side}`, p.keys).offsets(`gramKeys${side}`, g.keys).offsets(`gramStart${side}`, g.gStart);
        if (toKey) {
          const shared = gramWordKeyGaps(g, toKey);
          w.uints(`gramWordKeyGap${side}`, shared.gaps).uints(`gramMult${side}`, shared.mult);
        } else
          w.uints(`gramWord${side}`, g.gWord).uints(`gramMult${side}`, g.gMult).offsets(`gramWordStart${side}`, g.wStart).raw(`gramWordPost${side}`, g.wBytes);
      }
      // the n-gram length of a document is that of its words (at least 1): stored only when one differs
      const gramLen = lens(s.char);
      if (gramLen.some((x, d) => x !== Math.max(1, wordLen[d]))) w.uints(`gramLen${side}`, gramLen);
    });
    const ctx = this.ctx.pack();
    const integers = integerRows(ctx.vecs);
    const derived = derivableContextRows(ctx, packs, vocab, (d, side) => words[side][d], integers ? (row) => row : requantizedRow);
    w.offsets('ctxKeys', ctx.keys).offsets('ctxDerived', derived.rows).uints('ctxDerivedWord', derived.word);
    writeContextVectors(w, ctx.vecs, ctx.keys.length, derived.rows, integers);
    // schema 10: the vectors a reader computes again from what is stored (integer context rows read exactly)
    const derivable =
      integers &&
      packs.reduce((t, p) => t + p.df.reduce((x, y) => x + y, 0), 0) <= DERIVED_DOC_VECTORS_MAX_POSTINGS &&
      keyOrderWords.every((words) => words !== null) &&
      distinctWordKeys(keyOrderWords as string[][]);
    /** a side's words' context rows as a reader has them (stored exactly, or learned again as they are) */
    const wordRows = (side: 0 | 1, words: readonly string[]): { rows: Float32Array; has: Uint8Array } => {
      const rows = new Float32Array(words.length * DIM);
      const has = new Uint8Array(words.length);
      words.forEach((w, j) => {
        const r = sortedIndexOf(ctx.keys, wordKey(side, w));
        if (r < 0) return;
        has[j] = 1;
        rows.set(ctx.vecs.subarray(r * DIM, r * DIM + DIM), j * DIM);
      });
      return { rows, has };
    };
    for (const s of [0, 1] as const) {
      const V = this.docVecs(s);
      const q = new Int8Array(n * DIM);
      let codes = true;
      for (let d = 0; d < this.ids.length; d++) if (map[d] >= 0 && !toCodes(V, d * DIM, q, map[d] * DIM)) codes = false;
      let fixes: number[] | null = null;
      if (codes && derivable) {
        const { rows, has } = wordRows(s, keyOrderWords[s]!);
        fixes = differingDocs(derivedDocCodes(n, flatPostings(packs[s]), packs[s].df, rows, has), q, n);
      }
      if (fixes && fixes.length <= n * DERIVED_DOC_VECTORS_MAX_FIXED) writeDerivedDocVectors(w, `vec${s}`, q, fixes);
      else if (codes) writeDocVectors(w, `vec${s}`, q, n);
      else {
        // vectors read from an older artifact (16-bit) and not computed since: stored as they were read, so the index
        // answers as before it was written again
        const v = new Float32Array(n * DIM);
        for (let d = 0; d < this.ids.length; d++) if (map[d] >= 0) v.set(V.subarray(d * DIM, d * DIM + DIM), map[d] * DIM);
        writeVectors(w, `vec${s}`, v, n);
      }
    }
    return w.finish();
  }

  /** Reads an `INDX` artifact, or a legacy `GAIAIDX2` blob (migrated in memory). */
  static deserialize(bytes: Uint8Array): HybridIndex {
    if (!ArtifactReader.is(bytes)) return HybridIndex.deserializeLegacy(bytes);
    const opened = ArtifactReader.open(bytes, INDEX_KIND);
    if (opened.schema < MIN_INDEX_SCHEMA || opened.schema > INDEX_SCHEMA)
      throw new ArtifactFormatError(`index schema ${opened.schema} is not readable by this engine (reads ${MIN_INDEX_SCHEMA}..${INDEX_SCHEMA})`);
    // schema 5 keeps no view into `bytes` once searched (each part read late has a copy of its own sections); older
    // schemas read texts and vectors in place: from a copy, so the caller's buffer (a whole agent artifact) can go
    const r = opened.schema < 5 ? ArtifactReader.open(bytes.slice(), INDEX_KIND) : opened;
    const rule = r.meta<IdRule | undefined>('idRule');
    const ids = rule ? new Array<string | undefined>(r.count('srcOf')) : r.strings('ids').toArray();
    const ix = HybridIndex.withDocs(ids);
    ix.src = new Array<string>(ids.length);
    ix.tgt = new Array<string>(ids.length);
    if (rule?.kind === 'sequence') ix.idRule = (d) => rule.prefix + String(rule.base + d);
    else if (rule?.kind === 'pairHash') ix.idRule = (d) => pairHashId(ix.srcAt(d), ix.tgtAt(d));
    else if (rule) throw new ArtifactFormatError(`unknown pair id rule ${JSON.stringify(rule)}`);
    const textBlocks = (name: string): string[] => Array.from({ length: r.meta<number | undefined>(`${name}TextBlocks`) ?? 0 }, (_, b) => `${name}Text${b}`);
    const texts = (name: string): DocTexts => {
      if (!r.has(`${name}Of`)) {
        const all = r.strings(name);
        return new DocTexts(() => all, 1, null, 0);
      }
      // the texts keep a copy of their own stored blocks, not the whole artifact
      const stored = r.extract(textBlocks(name));
      return new DocTexts((b) => stored.strings(`${name}Text${b}`), textBlocks(name).length, r.int32(`${name}Of`), stored.byteLength);
    };
    ix.storedTexts = () => ({ src: texts('src'), tgt: texts('tgt') });
    const cap = ix.alive.length;
    const sideSections = (side: number): string[] =>
      [
        ...['wordDf', 'wordStart', 'wordPost', 'wordLen', 'gramDf', 'gramLen'],
        ...(r.has(`words${side}`)
          ? ['words']
          : [
              'wordKeys',
              'gramStart',
              'gramKeys',
              'gramMult',
              ...(r.has(`gramWordKeyGap${side}`) ? ['gramWordKeyGap'] : ['gramWord', 'gramWordStart', 'gramWordPost']),
            ]),
      ].map((x) => `${x}${side}`);
    /** a side's words in key order (schema 9), read once, until the side is loaded */
    const sideWords: (string[] | null)[] = [null, null];
    const wordsOfSide = (side: 0 | 1, r: ArtifactReader): string[] => (sideWords[side] ??= r.strings(`words${side}`).toArray());
    /** a side's word postings, read once (for its searches, and for learning a context row of one of its words) */
    const wordPostings: (PackedPostings | null)[] = [null, null];
    const postingsOf = (side: 0 | 1, r: ArtifactReader): PackedPostings =>
      (wordPostings[side] ??= {
        keys: r.has(`words${side}`) ? postingKeysOf(wordsOfSide(side, r)) : r.int32(`wordKeys${side}`),
        df: r.int32(`wordDf${side}`),
        start: r.int32(`wordStart${side}`),
        bytes: r.bytesOf(`wordPost${side}`),
      });
    const loadSide = (side: 0 | 1, r: ArtifactReader): void => {
      const s = ix.sides[side];
      const packed = postingsOf(side, r);
      const wordLen = r.int32(`wordLen${side}`);
      s.word.load(packed, null, [], wordLen, cap);
      const df = r.int32(`gramDf${side}`);
      const words = r.has(`words${side}`) ? wordsOfSide(side, r) : null;
      let grams: GramPostings;
      if (words) {
        const derived = wordGrams(words, CHAR_SALT);
        sideWords[side] = null;
        if (derived.keys.length !== df.length)
          throw new ArtifactFormatError(`index side ${side} is corrupt (${df.length} gram counts for ${derived.keys.length} grams)`);
        grams = { ...derived, df, wStart: packed.start, wBytes: packed.bytes };
      } else {
        const shared = r.has(`gramWordKeyGap${side}`);
        const gStart = r.int32(`gramStart${side}`);
        grams = {
          keys: r.int32(`gramKeys${side}`),
          df,
          gStart,
          gWord: shared ? gramWordKeys(r.int32(`gramWordKeyGap${side}`), gStart) : r.int32(`gramWord${side}`),
          gMult: gramMult(r, `gramMult${side}`),
          wStart: shared ? packed.start : r.int32(`gramWordStart${side}`),
          wBytes: shared ? packed.bytes : r.bytesOf(`gramWordPost${side}`),
        };
      }
      const gramLen = r.has(`gramLen${side}`) ? r.int32(`gramLen${side}`) : wordLen.map((x) => Math.max(1, x));
      s.char.load(null, grams, [], gramLen, cap);
      if (r.meta<boolean | undefined>(`vec${side}Derived`)) {
        if (!words) throw new ArtifactFormatError(`index side ${side} is corrupt (document vectors to compute without its words)`);
        ix.pendingDense[side] = () => derivedDense(side, words, r);
      } else {
        ix.storedDense[side] = readVectorRows(r, `vec${side}`);
        if (!ix.storedDense[side]) readVectors(r, `vec${side}`, ix.docVecs(side));
      }
    };
    // each side keeps a copy of its own stored sections until it is decoded, not the whole artifact
    const vectorSections = (side: number): string[] => ['Q', 'Scale', 'Row', 'Q31', 'Max', 'ScaleFix', 'Q8', 'FixDoc', 'FixQ8'].map((x) => `vec${side}${x}`);
    const sides = [0, 1].map((side) => [...sideSections(side), ...vectorSections(side)]);
    const [r0, r1] = sides.map((names) => r.extract(names));
    /** each document's key sums and each side's postings flat while a side's vectors are still to be computed */
    let keySums: Float32Array | null = null;
    let flat: (FlatPostings | null)[] = [null, null];
    const flatOf = (side: 0 | 1): FlatPostings => (flat[side] ??= flatPostings(postingsOf(side, [r0, r1][side])));
    let sidesToDerive = [0, 1].filter((side) => r.meta<boolean | undefined>(`vec${side}Derived`)).length;
    /** schema 10: a side's document vectors from its postings and the context rows, with its stored fixes */
    const derivedDense = (side: 0 | 1, words: readonly string[], r: ArtifactReader): StoredDense => {
      const n = ix.ids.length;
      if (!keySums) {
        const other = (1 - side) as 0 | 1;
        const here = { words, flat: flatOf(side) };
        const there = { words: sideWords[other] ?? [r0, r1][other].strings(`words${other}`).toArray(), flat: flatOf(other) };
        keySums = docKeySums(n, side === 0 ? [here, there] : [there, here]);
      }
      const sums = keySums;
      const sideFlat = flatOf(side);
      if (--sidesToDerive === 0) [keySums, flat] = [null, [null, null]];
      const { rows, has } = ix.ctx.rowsOf(
        Int32Array.from(words, (w) => wordKey(side, w)),
        sums,
      );
      const codes = derivedDocCodes(n, sideFlat, postingsOf(side, r).df, rows, has);
      if (r.has(`vec${side}FixDoc`)) {
        const fixQ = r.raw<Int8Array>(`vec${side}FixQ8`);
        r.int32(`vec${side}FixDoc`).forEach((d, x) => codes.set(fixQ.subarray(x * DIM, x * DIM + DIM), d * DIM));
      }
      const { rowOf, u } = distinctCodes(codes, n);
      return codeRows(codes.subarray(0, u * DIM), rowOf);
    };
    ix.pendingSides = [() => loadSide(0, r0), () => loadSide(1, r1)];
    // a side's document vectors are held as floats once searched (schema 7 on stores a byte per component; computed
    // again, schema 10, at most a row per document), and a row per document
    const vectorBytes = (side: number): number => {
      const float = Float32Array.BYTES_PER_ELEMENT;
      if (r.meta<boolean | undefined>(`vec${side}Derived`)) return ids.length * (DIM + 1) * float;
      if (r.has(`vec${side}Q8`)) return (r.count(`vec${side}Q8`) + r.count(`vec${side}Row`)) * float;
      return r.decodedBytes(vectorSections(side));
    };
    ix.pendingBytes = [0, 1].map((side) => r.decodedBytes(sideSections(side)) + derivedGramBytes(r, side) + vectorBytes(side)) as [number, number];
    const integers = r.meta<boolean | undefined>('ctxIntegers') === true;
    const ctxBlocks = Array.from({ length: r.meta<number | undefined>('ctxBlocks') ?? 0 }, (_, b) => `${integers ? 'ctxZ' : 'ctxQ'}${b}`);
    ix.pendingOtherBytes = r.decodedBytes([
      'srcOf',
      'tgtOf',
      'src',
      'tgt',
      'ctxKeys',
      'ctxQ',
      'ctxScale',
      'ctxDerived',
      ...ctxBlocks,
      ...textBlocks('src'),
      ...textBlocks('tgt'),
    ]);
    ix.pendingContext = () => {
      const keys = r.int32('ctxKeys');
      // a copy: a view would keep the whole artifact
      const scale = integers ? null : r.raw<Float32Array>('ctxScale').slice();
      let q: StoredRows;
      if (r.meta<number | undefined>('ctxBlocks') !== undefined) {
        // the blocks keep a copy of their own stored sections, not the whole artifact (schema 6: none when every row
        // is learned again)
        const stored = r.extract(ctxBlocks);
        q = new StoredRows(CONTEXT_BLOCK, ctxBlocks.length, (b) => (integers ? zigZagRows(stored.int32(ctxBlocks[b])) : stored.raw<Int16Array>(ctxBlocks[b])));
      } else {
        const all = r.raw<Int16Array>('ctxQ');
        q = new StoredRows(Math.max(1, keys.length), 1, () => all);
      }
      let derived: DerivedRows | null = null;
      if (r.has('ctxDerived')) {
        const word = r.int32('ctxDerivedWord');
        const wordsOf = (d: number, s: 0 | 1): string[] => indexWords(s === 0 ? ix.srcAt(d) : ix.tgtAt(d));
        const sideReaders = [r0, r1];
        derived = {
          rows: r.int32('ctxDerived'),
          row: (x, keysOf = (d) => docKeysOf(d, wordsOf)) => {
            const row = contextRowFromDocs(keys[derived!.rows[x]], derived!.docs(x), keysOf);
            return integers ? row : requantizedRow(row);
          },
          keysCache: () => cachedDocKeys(wordsOf),
          docs: (x) => postingDocs(postingsOf((word[x] & 1) as 0 | 1, sideReaders[word[x] & 1]), word[x] >>> 1),
        };
      }
      ix.ctx.load(keys, null, { q, scale, derived });
    };
    return ix;
  }

  private static withDocs(ids: (string | undefined)[]): HybridIndex {
    const ix = new HybridIndex();
    const n = ids.length;
    ix.grow(Math.max(1, n));
    ix.ids = ids;
    ix.alive.fill(1, 0, n);
    ix.embedded.fill(1, 0, n);
    ix.byIdMap = null;
    ix.liveCount = n;
    ix.addedSinceEmbed = 0;
    return ix;
  }

  private static deserializeLegacy(bytes: Uint8Array): HybridIndex {
    const { header, arrays } = unpackLegacyBinary<LegacyIndexHeader>('GAIAIDX2', bytes);
    const ix = HybridIndex.withDocs(header.ids);
    ix.src = header.src;
    ix.tgt = header.tgt;
    const cap = ix.alive.length;
    let fi = 0;
    for (const s of ix.sides) {
      for (const f of [s.word, s.char]) {
        const seg: Segment = {
          keys: arrays[`keys${fi}`] as Int32Array,
          off: arrays[`off${fi}`] as Int32Array,
          doc: arrays[`doc${fi}`] as Int32Array,
          tf: arrays[`tf${fi}`] as Uint16Array,
        };
        f.load(null, null, splitLegacySegments(seg, header.parts?.[fi]), arrays[`len${fi}`] as Int32Array, cap);
        fi++;
      }
    }
    ix.ctx.load(arrays.ctxKeys as Int32Array, arrays.ctxVecs as Float32Array, null);
    for (let s = 0; s < 2; s++) ix.docVecs(s as 0 | 1).set(arrays[`vec${s}`] as Float32Array);
    return ix;
  }

  /** Approximate bytes this index holds in memory (typed arrays, packed postings and texts). */
  get byteSize(): number {
    let b = this.alive.byteLength * 2 + this.ctx.byteSize;
    for (let s = 0; s < 2; s++) {
      const stored = this.storedDense[s];
      b += this.vecs[s].byteLength + (stored ? stored.rows.byteLength + stored.rowOf.byteLength : 0);
    }
    for (const s of this.sides)
      for (const f of [s.word, s.char]) {
        b += f.docLen.byteLength;
        if (f.packed) b += f.packed.bytes.byteLength + f.packed.keys.byteLength * 3;
        if (f.grams)
          b +=
            (f.grams.wBytes === s.word.packed?.bytes ? 0 : f.grams.wBytes.byteLength + f.grams.wStart.byteLength) +
            f.grams.keys.byteLength * 3 +
            f.grams.gWord.byteLength * 2;
        for (const g of f.segs) b += g.keys.byteLength + g.off.byteLength + g.doc.byteLength + g.tf.byteLength;
      }
    b += this.pendingBytes[0] + this.pendingBytes[1];
    if (this.storedTexts || this.pendingContext) b += this.pendingOtherBytes;
    else if (this.storedCache) b += this.storedCache.src.byteSize + this.storedCache.tgt.byteSize;
    for (let d = 0; d < this.ids.length; d++) b += 2 * ((this.ids[d]?.length ?? 0) + (this.src[d]?.length ?? 0) + (this.tgt[d]?.length ?? 0)) + 48;
    return b;
  }
}

/** Distinct document vectors (DIM floats each) and the row of each document. */
interface StoredDense {
  rows: Float32Array;
  count: number;
  rowOf: Int32Array;
}

interface DenseRows {
  /** the document vectors (and their write count, and the documents) the rows were derived from */
  vecs: Float32Array;
  writes: number;
  n: number;
  /** distinct vectors (bit for bit), DIM floats each */
  rows: Float32Array;
  count: number;
  rowOf: Int32Array;
}

/**
 * The distinct rows of the first n document vectors (equal bit for bit; documents sharing a text, or words, share
 * one: 14,469 rows for 26,032 gn documents) and the row of each document, so a search takes each dot product once.
 */
function distinctRows(V: Float32Array, n: number): { rows: Float32Array; count: number; rowOf: Int32Array } {
  const bits = new Int32Array(V.buffer, V.byteOffset, n * DIM);
  let cap = 1;
  while (cap < 2 * n) cap *= 2;
  const slots = new Int32Array(cap).fill(-1);
  const first = new Int32Array(n);
  const rowOf = new Int32Array(n);
  let count = 0;
  for (let d = 0; d < n; d++) {
    const o = d * DIM;
    let h = 0x811c9dc5;
    for (let i = 0; i < DIM; i++) h = Math.imul(h ^ bits[o + i], 0x01000193);
    let s = (h ^ (h >>> 15)) & (cap - 1);
    for (;;) {
      const x = slots[s];
      if (x < 0) {
        slots[s] = count;
        first[count] = d;
        rowOf[d] = count++;
        break;
      }
      const e = first[x] * DIM;
      let same = true;
      for (let i = 0; i < DIM; i++)
        if (bits[e + i] !== bits[o + i]) {
          same = false;
          break;
        }
      if (same) {
        rowOf[d] = x;
        break;
      }
      s = (s + 1) & (cap - 1);
    }
  }
  const rows = new Float32Array(count * DIM);
  for (let x = 0; x < count; x++) rows.set(V.subarray(first[x] * DIM, first[x] * DIM + DIM), x * DIM);
  return { rows, count, rowOf };
}

/**
 * Dot products of the query with the first `count` rows of V into out: the DIM = 32 products unrolled, added in the
 * same order as a loop over i would.
 */
function denseScores(q: Float32Array, V: Float32Array, count: number, out: Float64Array): void {
  const q0 = q[0];
  const q1 = q[1];
  const q2 = q[2];
  const q3 = q[3];
  const q4 = q[4];
  const q5 = q[5];
  const q6 = q[6];
  const q7 = q[7];
  const q8 = q[8];
  const q9 = q[9];
  const q10 = q[10];
  const q11 = q[11];
  const q12 = q[12];
  const q13 = q[13];
  const q14 = q[14];
  const q15 = q[15];
  const q16 = q[16];
  const q17 = q[17];
  const q18 = q[18];
  const q19 = q[19];
  const q20 = q[20];
  const q21 = q[21];
  const q22 = q[22];
  const q23 = q[23];
  const q24 = q[24];
  const q25 = q[25];
  const q26 = q[26];
  const q27 = q[27];
  const q28 = q[28];
  const q29 = q[29];
  const q30 = q[30];
  const q31 = q[31];
  for (let x = 0; x < count; x++) {
    const o = x * DIM;
    out[x] =
      q0 * V[o + 0] +
      q1 * V[o + 1] +
      q2 * V[o + 2] +
      q3 * V[o + 3] +
      q4 * V[o + 4] +
      q5 * V[o + 5] +
      q6 * V[o + 6] +
      q7 * V[o + 7] +
      q8 * V[o + 8] +
      q9 * V[o + 9] +
      q10 * V[o + 10] +
      q11 * V[o + 11] +
      q12 * V[o + 12] +
      q13 * V[o + 13] +
      q14 * V[o + 14] +
      q15 * V[o + 15] +
      q16 * V[o + 16] +
      q17 * V[o + 17] +
      q18 * V[o + 18] +
      q19 * V[o + 19] +
      q20 * V[o + 20] +
      q21 * V[o + 21] +
      q22 * V[o + 22] +
      q23 * V[o + 23] +
      q24 * V[o + 24] +
      q25 * V[o + 25] +
      q26 * V[o + 26] +
      q27 * V[o + 27] +
      q28 * V[o + 28] +
      q29 * V[o + 29] +
      q30 * V[o + 30] +
      q31 * V[o + 31];
  }
}

/** Scratch of the searches (one search runs at a time): per-document scores, zeroed before each field is scored. */
let scoreBuf = new Float64Array(0);
let touchedBuf = new Int32Array(0);
let rowScoreBuf = new Float64Array(0);
/** The best FIELD_TOP of each ranking (reset per ranking). */
const fieldTop = new TopK(FIELD_TOP);

function scoreScratch(n: number): Float64Array {
  if (scoreBuf.length < n) scoreBuf = new Float64Array(Math.max(n, 2 * scoreBuf.length));
  return scoreBuf;
}

/** Room for n documents and the spare slot PostingField.score writes past the last one. */
function touchedScratch(n: number): Int32Array {
  if (touchedBuf.length < n + 1) touchedBuf = new Int32Array(Math.max(n + 1, 2 * touchedBuf.length));
  return touchedBuf;
}

function rowScoreScratch(n: number): Float64Array {
  if (rowScoreBuf.length < n) rowScoreBuf = new Float64Array(Math.max(n, 2 * rowScoreBuf.length));
  return rowScoreBuf;
}
