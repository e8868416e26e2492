import { TRANSLATION_MAX_CHARS, TRANSLATION_MAX_WORDS } from '@gaia/contracts';
import { DomainError } from './domain-error';
import { countWords } from './ids';

/**
 * The input rule of one translation (spec §5/§9: at most 50 words and 2,000 characters, not blank), defined once:
 * the gateway applies it before any quota is used and the translation service to every `translation.translate.v1`
 * request. Returns the text as translated (trimmed) and its word count; violations are 400 DomainErrors with the
 * spec's texts (`text_required`, `text_too_long` with the limit in `details`).
 */
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
