// npm install @gaia/client  (ESM or CommonJS; needs only fetch: Node.js 20+ or a browser)
import { GaiaClient, GaiaRateLimitError } from '@gaia/client';

const gaia = new GaiaClient({ baseUrl: 'http://localhost:8080', apiKey: 'YOUR_API_KEY', retry: { retries: 3 } });
const request = { text: 'Allinllachu kashanki?', model_id: 'YOUR_MODEL_ID', src_lang: 'quechua', tgt_lang: 'spanish' };

// One answer, as JSON
const { data } = await gaia.translate(request);
console.log(data.translation);

// The same translation as it streams (status, translation_chunk, translation_complete)
for await (const event of gaia.streamTranslation(request)) {
  if (event.type === 'translation_complete') console.log(`${event.final_translation} (${event.response_time} s)`);
}

// Up to 100 texts at once: one result per text, in order
const batch = await gaia.translateBatch({ ...request, texts: ['Allinllachu kashanki?', 'Sulpayki'] });
for (const r of batch.results) console.log(r.index, r.ok ? r.translation : `failed: ${r.error}`);

// Errors are typed, with the server's message and status
try {
  await gaia.translate({ ...request, model_id: 'no-such-agent' });
} catch (e) {
  console.log(e instanceof GaiaRateLimitError ? `retry in ${e.retryAfterSeconds} s` : `${e.status} ${e.message}`);
}
