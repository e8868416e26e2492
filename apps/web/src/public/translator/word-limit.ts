import { MAX_WORDS } from '../../config';

/** Words of a text, split on whitespace (spec §5). */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

/**
 * What the source box accepts: the new value when it has at most `max` words; otherwise the text up to the
 * end of its `max`-th word (words beyond the limit are not accepted into the box).
 */
export function limitWords(next: string, max: number = MAX_WORDS): string {
  if (countWords(next) <= max) return next;
  const re = /\S+/g;
  let end = 0;
  for (let i = 0; i < max; i++) {
    const m = re.exec(next);
    if (!m) break;
    end = m.index + m[0].length;
  }
  return next.slice(0, end);
}

/** Capitalised language name for display ('quechua' → 'Quechua'). */
export function formatLanguage(lang: string | null | undefined): string {
  const s = (lang ?? '').trim();
  return s ? s.charAt(0).toLocaleUpperCase() + s.slice(1) : '';
}
