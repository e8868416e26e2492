/**
 * Tokenization for low-resource languages.
 *
 * - Unicode NFC.
 * - Apostrophes and glottal marks are letters inside words (' ’ ʼ ꞌ ‘ `): Guaraní mba'e, Quechua p'unchaw,
 *   Otomí / Aymara ejectives. The modifier letters ʼ (U+02BC) and ꞌ (U+A78C) are letters anywhere.
 * - Diacritics are kept in tokens; `foldToken` removes them only for matching.
 * - Punctuation is split into its own tokens; hyphens between letters stay inside the word (Guaraní `República-pe`).
 */

const L = '\\p{L}\\p{M}\\p{N}ʼꞌꞋˀ';
// URLs and e-mail addresses (trailing sentence punctuation excluded) and numbers with separators (12/03/2020,
// 10:30, 1.500,75) are single tokens so they are carried over exactly.
const URL = `(?:https?://|www\\.)[^\\s]+?(?=[.,;:!?)\\]]*(?:\\s|$))|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+`;
const NUMBER = `\\p{N}+(?:[.,:/]\\p{N}+)+`;
// Abbreviations of capitals with full stops (I.U., EE.UU., O.N.U.) are one name, carried over as written.
const ACRONYM = `(?:\\p{Lu}{1,3}\\.){2,}`;
const ACRONYM_RE = new RegExp(`^${ACRONYM}$`, 'u');
const TOKEN_RE = new RegExp(`${URL}|${NUMBER}|${ACRONYM}|[${L}]+(?:[-'’‘\`´][${L}]+)*(?:['’´](?=\\s|$))?|\\S`, 'gu');
const URL_RE = new RegExp(`^(?:${URL})$`, 'u');
const FIRST_LETTER = new RegExp(`^[${L}]`, 'u');

// Some corpora write glottal stops detached ("manq ’ a"); a lone apostrophe between two letters is rejoined.
const DETACHED_GLOTTAL = new RegExp(`([${L}]) ([’'ʼ]) (?=[${L}])`, 'gu');

/**
 * Texts tokenized lately and their tokens: one translation tokenizes its input and each retrieved example several
 * times (retrieval, the phases, untranslated spans; 11 calls for 4–5 distinct texts on gn), the oldest forgotten first.
 */
const RECENT_TEXTS = 32;
const recentTokens = new Map<string, readonly string[]>();

/** Tokens of `text` (NFC, case and diacritics preserved); a new array on every call (callers may change it). */
export function tokenize(text: string): string[] {
  const t = text ?? '';
  const hit = recentTokens.get(t);
  if (hit) return hit.slice();
  const tokens = t.normalize('NFC').replace(DETACHED_GLOTTAL, '$1$2').match(TOKEN_RE) ?? [];
  if (recentTokens.size >= RECENT_TEXTS) recentTokens.delete(recentTokens.keys().next().value as string);
  recentTokens.set(t, tokens.slice());
  return tokens;
}

/** Unifies apostrophe variants to U+0027 and lower-cases (diacritics kept). Used as the modelling form. */
export function normalizeToken(tok: string): string {
  return tok.toLowerCase().replace(/[’‘`´ʼꞌꞋ]/g, "'");
}

/** Text of ASCII characters only: no diacritics, unchanged by Unicode normalization. */
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Matching form: lower case, diacritics removed (ñ → n), apostrophes unified. */
export function foldToken(tok: string): string {
  const norm = normalizeToken(tok);
  if (ASCII_ONLY.test(norm)) return norm;
  return norm
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
}

/** Tokens after which a capitalized word starts a sentence (and may be capitalized for that reason only). */
const SENTENCE_OPENERS = /^[.!?¿¡:;"«“(]$/;

/**
 * Whether the word at position i of a line's written tokens may be capitalized for its place alone: it starts a
 * sentence (first, or after an opener), or the line is written in title case (`titleCased`), where a capital marks no
 * name.
 */
export function atSentenceStart(surface: readonly string[], i: number): boolean {
  return opensAt(surface, i) || titleCased(surface);
}

/** `atSentenceStart` of every position of a line, its title case judged once (a loop over a line's words reads this). */
export function sentenceStarts(surface: readonly string[]): boolean[] {
  const title = titleCased(surface);
  return surface.map((_, i) => title || opensAt(surface, i));
}

/** Whether the token at position i starts the line or follows a sentence opener. */
function opensAt(surface: readonly string[], i: number): boolean {
  return i === 0 || SENTENCE_OPENERS.test(surface[i - 1]);
}

/** `titleCased` judges the words of at least this many letters: a heading may write its articles and prepositions of
 *  fewer in lower case ('Informe Anual de la Comunidad'). */
const TITLE_CASE_MIN_LETTERS = 3;
/** `titleCased` needs at least this many such words (fewer may be a name and a word: 'Bill Gates'). */
const TITLE_CASE_MIN_WORDS = 3;

/**
 * Whether a line is written in title case, as headings are: every word of TITLE_CASE_MIN_LETTERS letters or more
 * capitalized, and at least TITLE_CASE_MIN_WORDS of them. Stops at the first such word in lower case (a sentence has
 * one among its first few words).
 */
export function titleCased(surface: readonly string[]): boolean {
  let words = 0;
  for (const t of surface) {
    if (t.length < TITLE_CASE_MIN_LETTERS || !isWordToken(t) || Array.from(t).length < TITLE_CASE_MIN_LETTERS) continue;
    if (!capitalized(t)) return false;
    words++;
  }
  return words >= TITLE_CASE_MIN_WORDS;
}

/** Whether the word at position i of a line's written tokens is capitalized inside its sentence (a name, not an opener). */
export function capitalizedInside(surface: readonly string[], i: number): boolean {
  return !atSentenceStart(surface, i) && capitalized(surface[i]);
}

/** `capitalizedInside` of every position of a line, from its `sentenceStarts` (judged once for the line). */
export function capitalizedInsideLine(surface: readonly string[], starts: readonly boolean[] = sentenceStarts(surface)): boolean[] {
  return surface.map((w, i) => !starts[i] && capitalized(w));
}

/**
 * The token tests below read a first character below this (ASCII) directly, and the Unicode-class pattern only for
 * others: the decoder and the unknown-word rules ask them of every token of every option, most of them ASCII.
 */
export const ASCII_END = 0x80;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
export const UPPER_A = 0x41;
export const UPPER_Z = 0x5a;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
/** Or-ed into an ASCII letter's code, the lower-case letter's code. */
export const ASCII_CASE_BIT = 0x20;
/** A URL, an e-mail address or an abbreviation writes one of these (`isLiteralToken`'s patterns need one). */
const LITERAL_MARKS = /[.:@]/;

/** Whether a written token starts with a capital letter. */
export function capitalized(tok: string): boolean {
  const c = tok.charCodeAt(0);
  return c < ASCII_END ? c >= UPPER_A && c <= UPPER_Z : /^\p{Lu}/u.test(tok);
}

export function isWordToken(tok: string): boolean {
  const c = tok.charCodeAt(0);
  if (c < ASCII_END) {
    const lower = c | ASCII_CASE_BIT;
    return (c >= DIGIT_0 && c <= DIGIT_9) || (lower >= LOWER_A && lower <= LOWER_Z);
  }
  return FIRST_LETTER.test(tok);
}

/** A token written the same in every language: a number, a URL, an e-mail address or an abbreviation (I.U.). */
export function isLiteralToken(tok: string): boolean {
  return isNumberToken(tok) || (LITERAL_MARKS.test(tok) && (URL_RE.test(tok) || ACRONYM_RE.test(tok)));
}

/** Whether normalized tokens write a word twice in a row (an answer to them then may too). */
export function repeatsWord(tokens: readonly string[]): boolean {
  return tokens.some((t, x) => x > 0 && t === tokens[x - 1] && isWordToken(t));
}

/** Whether tokens end with a punctuation mark (an answer to them left open then costs: sentence-ends.ts openCost). */
export function endsWithMark(tokens: readonly string[]): boolean {
  return tokens.length > 0 && !isWordToken(tokens[tokens.length - 1]);
}

/** A token written with digits (a number, date or time): carried over or translated, never read as another number. */
export function isNumberToken(tok: string): boolean {
  const c = tok.charCodeAt(0);
  return c < ASCII_END ? c >= DIGIT_0 && c <= DIGIT_9 : /^\p{N}/u.test(tok);
}

const NO_SPACE_BEFORE = new Set([',', '.', ';', ':', '!', '?', ')', ']', '}', '»', '”', '%', '…']);
const NO_SPACE_AFTER = new Set(['¡', '¿', '(', '[', '{', '«', '“']);

/** Joins tokens into text with conventional spacing around punctuation. */
export function detokenize(tokens: string[]): string {
  let out = '';
  let quoteOpen = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = i > 0 ? tokens[i - 1] : '';
    let space = i > 0;
    if (NO_SPACE_BEFORE.has(t)) space = false;
    if (NO_SPACE_AFTER.has(prev)) space = false;
    if (t === '"') {
      if (quoteOpen) space = false;
      quoteOpen = !quoteOpen;
    } else if (prev === '"' && quoteOpen) space = false;
    out += (space ? ' ' : '') + t;
  }
  return out;
}
