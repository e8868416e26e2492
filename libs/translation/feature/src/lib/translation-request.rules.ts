import { TRANSLATION_MAX_CHARS, TRANSLATION_MAX_WORDS } from '@gaia/contracts';
import { DomainError, countWords } from '@gaia/shared/kernel';
import type { Direction } from '@gaia/translation/llm';

/** Checks the input limits (spec §5/§9); returns the text as translated (trimmed) and its word count. */
export function checkTranslationInput(raw: string): { text: string; words: number } {
  const text = (raw ?? '').trim();
  if (!text) throw DomainError.invalid('Please enter text to translate.', 'text_required');
  if (text.length > TRANSLATION_MAX_CHARS) {
    throw DomainError.invalid(
      `Text is too long: ${text.length.toLocaleString('en-US')} characters (maximum ${TRANSLATION_MAX_CHARS.toLocaleString('en-US')}).`,
      'text_too_long',
      { maxChars: TRANSLATION_MAX_CHARS, chars: text.length },
    );
  }
  const words = countWords(text);
  if (words > TRANSLATION_MAX_WORDS) {
    throw DomainError.invalid(`Text is too long: ${words} words (maximum ${TRANSLATION_MAX_WORDS}).`, 'text_too_long', {
      maxWords: TRANSLATION_MAX_WORDS,
      words,
    });
  }
  return { text, words };
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * The direction of a request: the agent's pair as is (`forward`) or swapped (`reverse`); anything else
 * is refused with a message naming both pairs.
 */
export function resolveDirection(agent: { srcLang: string; tgtLang: string }, srcLang: string, tgtLang: string): Direction {
  const a = [norm(agent.srcLang), norm(agent.tgtLang)];
  const r = [norm(srcLang), norm(tgtLang)];
  if (r[0] === a[0] && r[1] === a[1]) return 'forward';
  if (r[0] === a[1] && r[1] === a[0]) return 'reverse';
  throw DomainError.invalid(
    `This agent translates between ${agent.srcLang} and ${agent.tgtLang}; it cannot translate ${srcLang} to ${tgtLang}.`,
    'language_mismatch',
  );
}
