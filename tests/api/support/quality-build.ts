import { waitFor, type TestApp } from '@gaia/testing';
import type { User } from './api-app';

/**
 * Uploads pairs as a new es → qu agent of `owner` (or adds them to `modelId`), waits until the build ends and then
 * until the new version's quality report has landed (it is measured after the agent is ready: docs/adr/0006);
 * answers the agent (as it was when the build failed, if it did).
 */
export async function uploadAndAwaitQuality(t: TestApp, owner: User, pairs: Array<{ es: string; qu: string }>, modelId?: string) {
  const previous: string | null = modelId ? ((await owner.agent.get(`/api/agents/${modelId}`).expect(200)).body.quality?.version ?? null) : null;
  const req = owner.agent
    .post(modelId ? '/api/update-model/' : '/api/documents/process/')
    .set('X-CSRF-Token', owner.csrf)
    .field('src_lang', 'es')
    .field('tgt_lang', 'qu')
    .field('custom_prompt', 'Español → Quechua');
  const sent = modelId
    ? req
        .field('model_id', modelId)
        .field('file_count', '1')
        .attach('parallel_sentences_0', Buffer.from(JSON.stringify(pairs)), 'more.json')
    : req.attach('files', Buffer.from(JSON.stringify(pairs)), 'corpus.json');
  const res = await sent.expect(200);
  await t.drain();
  const id = (modelId ?? res.body.model_id) as string;
  const built = await waitFor(
    () => owner.agent.get(`/api/agents/${id}`).then((r) => r.body),
    (a) => a.processing_status === 'COMPLETED' || a.processing_status === 'FAILED',
    { what: 'agent learned' },
  );
  if (built.processing_status !== 'COMPLETED') return built;
  return waitFor(
    () => owner.agent.get(`/api/agents/${id}`).then((r) => r.body),
    (a) => a.quality !== null && a.quality.version !== previous,
    { what: 'quality report of the new version' },
  );
}
