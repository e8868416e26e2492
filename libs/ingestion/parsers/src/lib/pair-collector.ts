import { ParseError } from './errors';
import { MAX_PAIRS_PER_AGENT, MAX_SEGMENT_CHARS } from './limits';
import { normalizeSegment } from './text/normalize';
import { ParseResult, ParseStats, SentencePair } from './types';

/** Normalises, de-duplicates and counts pairs as a parser produces them. */
export class PairCollector {
  readonly pairs: SentencePair[] = [];
  readonly stats: ParseStats = { lines: 0, empty: 0, oneSided: 0, duplicates: 0, tooLong: 0, invalid: 0 };
  readonly warnings: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    readonly filename: string,
    private readonly maxPairs = MAX_PAIRS_PER_AGENT,
  ) {}

  add(rawSource: unknown, rawTarget: unknown): void {
    this.stats.lines++;
    const source = normalizeSegment(rawSource);
    const target = normalizeSegment(rawTarget);
    if (!source && !target) {
      this.stats.empty++;
      return;
    }
    if (!source || !target) {
      this.stats.oneSided++;
      return;
    }
    if (source.length > MAX_SEGMENT_CHARS || target.length > MAX_SEGMENT_CHARS) {
      this.stats.tooLong++;
      return;
    }
    const key = source + '\u0000' + target;
    if (this.seen.has(key)) {
      this.stats.duplicates++;
      return;
    }
    this.seen.add(key);
    if (this.pairs.length >= this.maxPairs) {
      throw new ParseError('TOO_MANY_PAIRS', this.filename, `more than ${this.maxPairs.toLocaleString('en-US')} sentence pairs (the limit per agent)`);
    }
    this.pairs.push({ source, target });
  }

  /** Counts a blank record (e.g. an empty line between data lines). */
  addEmpty(): void {
    this.stats.lines++;
    this.stats.empty++;
  }

  /** Counts a record that has only one side (e.g. a line left without a counterpart by alignment). */
  addOneSided(): void {
    this.stats.lines++;
    this.stats.oneSided++;
  }

  /** Counts a record that could not be read. */
  addInvalid(): void {
    this.stats.lines++;
    this.stats.invalid++;
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  finish(format: string, what = 'sentence pairs'): ParseResult {
    if (this.stats.tooLong > 0) {
      this.warn(`${this.filename}: ${this.stats.tooLong} pair(s) skipped: a side is longer than ${MAX_SEGMENT_CHARS.toLocaleString('en-US')} characters`);
    }
    if (this.pairs.length === 0) {
      const reasons: string[] = [];
      if (this.stats.oneSided) reasons.push(`${this.stats.oneSided} one-sided`);
      if (this.stats.invalid) reasons.push(`${this.stats.invalid} unreadable`);
      if (this.stats.empty) reasons.push(`${this.stats.empty} empty`);
      if (this.stats.tooLong) reasons.push(`${this.stats.tooLong} longer than ${MAX_SEGMENT_CHARS.toLocaleString('en-US')} characters`);
      throw new ParseError('NO_PAIRS', this.filename, `no ${what} found${reasons.length ? ` (${reasons.join(', ')})` : ''}`);
    }
    if (this.stats.oneSided) this.warn(`${this.filename}: ${this.stats.oneSided} one-sided line(s) skipped`);
    return { pairs: this.pairs, stats: this.stats, warnings: this.warnings, format };
  }
}
