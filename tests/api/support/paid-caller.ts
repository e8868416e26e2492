import type { TestApp } from '@gaia/testing';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { signUp, type User } from './api-app';
import { createAgent } from './agents';

export interface PaidCaller {
  user: User;
  /** A public agent of the user. */
  agentId: string;
  /** An API key of the user. */
  key: string;
}

/**
 * A caller for suites that translate a lot: a new user on the Starter plan (metered, without the Free plan's
 * ten translations a day), a public agent of theirs in the given languages and an API key.
 */
export async function paidCaller(t: TestApp & { url: string }, name: string, langs: { srcLang: string; tgtLang: string }): Promise<PaidCaller> {
  const user = await signUp(t.url, name);
  await t.app.get<RpcClient>(RPC_CLIENT).call('billing.set-plan.v1', { userId: user.uid, plan: 'starter' });
  const agentId = (await createAgent(t.app, { ownerId: user.uid, ownerEmail: user.email, ...langs, customPrompt: name, public: true })).id;
  const key = (await user.agent.post('/api/api-keys/create/').set('X-CSRF-Token', user.csrf).send({ name }).expect(200)).body.api_key as string;
  return { user, agentId, key };
}
