import { ParseError } from '../errors';
import { PairCollector } from '../pair-collector';
import { detectLineLayout } from '../text/line-layouts';
import { splitLines } from '../text/normalize';
import { ParseOptions, ParseResult } from '../types';
import { pickKeys } from './keys';

export function parseTxtText(filename: string, text: string, o: ParseOptions): ParseResult {
  const lines = splitLines(text);
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  // A header line naming the columns ("es\tgn", "source ||| target") is not data.
  if (lines.length > 1) {
    const cells = lines[0].split(/\t|\|\|\|/).map((s) => s.trim());
    if (cells.length >= 2 && pickKeys(cells, o.srcLang, o.tgtLang)) lines.shift();
  }
  const layout = detectLineLayout(lines, o);
  if (!layout) {
    throw new ParseError(
      'NO_PAIRS',
      filename,
      'no sentence pairs found; write one pair per line as "source<TAB>target" or "source ||| target", or two aligned blocks separated by a blank line',
    );
  }
  const c = new PairCollector(filename, o.maxPairs);
  for (let i = 0; i < layout.blanks; i++) c.addEmpty();
  for (const [a, b] of layout.pairs) c.add(a, b);
  for (let i = 0; i < (layout.unpaired ?? 0); i++) c.addOneSided();
  for (const w of layout.warnings) c.warn(`${filename}: ${w}`);
  return c.finish(`txt:${layout.layout}`);
}
