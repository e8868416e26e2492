import type { TestApp } from '@gaia/testing';
import { realAgent, TINY_ES_QU, type CorpusPair } from '../fixtures/real-agent';
import type { User } from './api-app';

/** TINY_ES_QU with a few longer phrases of its words (an adjective, a possessive) for the feedback suites. */
export const FEEDBACK_PAIRS: readonly CorpusPair[] = [
  ...TINY_ES_QU,
  ...[
    ['el agua fría', 'chiri yaku'],
    ['la casa grande', 'hatun wasi'],
    ['el perro grande', 'hatun allqu'],
    ['mi perro', 'allquy'],
  ].map(([source, target]) => ({ source, target })),
];

/** Uploads the corpus as the user's agent and waits until it is learned (`realAgent`); answers the agent id. */
export function learnedAgent(t: TestApp, owner: User, description = 'Español → Quechua'): Promise<string> {
  return realAgent(t, owner, { srcLang: 'es', tgtLang: 'qu', pairs: FEEDBACK_PAIRS, description });
}
