import { DomainError } from '@gaia/shared/kernel';
import type { Direction } from '@gaia/translation/llm';

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
