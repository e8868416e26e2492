import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import type { TestApp } from '@gaia/testing';
import { realAgent } from '../fixtures/real-agent';
import type { User } from './api-app';

/** A small Spanish → Quechua corpus the built-in engine learns in a moment. */
export const FEEDBACK_PAIRS = [
  ['buenos días', 'allin punchaw'],
  ['buenas noches', 'allin tuta'],
  ['gracias', 'sulpayki'],
  ['el agua', 'yaku'],
  ['el agua fría', 'chiri yaku'],
  ['la casa', 'wasi'],
  ['la casa grande', 'hatun wasi'],
  ['el sol', 'inti'],
  ['la luna', 'killa'],
  ['la tierra', 'allpa'],
  ['el perro', 'allqu'],
  ['el perro grande', 'hatun allqu'],
  ['la montaña', 'urqu'],
  ['el río', 'mayu'],
  ['mi casa', 'wasiy'],
  ['mi perro', 'allquy'],
].map(([source, target]) => ({ source, target }));

/** Uploads the corpus as the user's agent and waits until it is learned (`realAgent`); answers the agent id. */
export function learnedAgent(t: TestApp, owner: User, description = 'Español → Quechua'): Promise<string> {
  return realAgent(t, owner, { srcLang: 'es', tgtLang: 'qu', pairs: FEEDBACK_PAIRS, description });
}

/** Starter plan (words by the month, not 10 calls a day): the suites translate more than the free plan allows. */
export async function starterPlan(t: TestApp, user: User): Promise<void> {
  await t.app.get<RpcClient>(RPC_CLIENT).call('billing.set-plan.v1', { userId: user.uid, plan: 'starter' });
}
