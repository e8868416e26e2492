import type { TestApp } from '@gaia/testing';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { realAgent, type CorpusPair } from '../fixtures/real-agent';
import { signUp, type User } from './api-app';
import { createAgent } from './agents';

export interface PaidCaller {
  user: User;
  /** A public agent of the user. */
  agentId: string;
  /** An API key of the user. */
  key: string;
}

/** Starter plan (words by the month, not 10 calls a day): for suites that translate more than the Free plan allows. */
export async function starterPlan(t: TestApp, user: User): Promise<void> {
  await t.app.get<RpcClient>(RPC_CLIENT).call('billing.set-plan.v1', { userId: user.uid, plan: 'starter' });
}

/**
 * A caller for suites that translate a lot: a new user on the Starter plan (metered, without the Free plan's ten
 * translations a day), a public agent of theirs in the given languages and an API key. With `pairs` the agent is a real
 * one learned from them (`realAgent`, for the real translation service); without, an agent record only (for the
 * translation stand-in).
 */
export async function paidCaller(
  t: TestApp & { url: string },
  name: string,
  o: { srcLang: string; tgtLang: string; pairs?: readonly CorpusPair[] },
): Promise<PaidCaller> {
  const user = await signUp(t.url, name);
  await starterPlan(t, user);
  const { srcLang, tgtLang, pairs } = o;
  const agentId = pairs
    ? await realAgent(t, user, { srcLang, tgtLang, pairs, public: true })
    : (await createAgent(t.app, { ownerId: user.uid, ownerEmail: user.email, srcLang, tgtLang, customPrompt: name, public: true })).id;
  const key = (await user.agent.post('/api/api-keys/create/').set('X-CSRF-Token', user.csrf).send({ name }).expect(200)).body.api_key as string;
  return { user, agentId, key };
}
