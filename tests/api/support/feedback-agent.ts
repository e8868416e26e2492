import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { waitFor, type TestApp } from '@gaia/testing';
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
].map(([es, qu]) => ({ es, qu }));

/** Uploads the corpus as the user's agent and waits until it is learned; answers the agent id. */
export async function learnedAgent(t: TestApp, owner: User, description = 'Español → Quechua'): Promise<string> {
  const up = await owner.agent
    .post('/api/documents/process/')
    .set('X-CSRF-Token', owner.csrf)
    .field('src_lang', 'es')
    .field('tgt_lang', 'qu')
    .field('custom_prompt', description)
    .attach('files', Buffer.from(JSON.stringify(FEEDBACK_PAIRS)), 'saludos.json')
    .expect(200);
  await t.drain();
  const agent = await waitFor(
    () => owner.agent.get(`/api/agents/${up.body.model_id}`).then((r) => r.body),
    (a) => a.processing_status === 'COMPLETED' || a.processing_status === 'FAILED',
    { what: 'agent learned' },
  );
  if (agent.processing_status !== 'COMPLETED') throw new Error(`agent not learned: ${agent.processing_error}`);
  return up.body.model_id as string;
}

/** Starter plan (words by the month, not 10 calls a day): the suites translate more than the free plan allows. */
export async function starterPlan(t: TestApp, user: User): Promise<void> {
  await t.app.get<RpcClient>(RPC_CLIENT).call('billing.set-plan.v1', { userId: user.uid, plan: 'starter' });
}
