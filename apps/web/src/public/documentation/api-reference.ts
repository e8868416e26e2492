import { MAX_CHARS, MAX_WORDS } from '../../config';
import { curlExample } from './examples';

/**
 * The public endpoints this page documents. The e2e suite checks each one against the gateway's OpenAPI
 * document (/api/docs-json), so the page cannot drift from the real API.
 */
export const DOCUMENTED_ENDPOINTS = [
  { method: 'POST', path: '/api/translate/', key: 'translate' },
  { method: 'GET', path: '/api/agents/public', key: 'publicAgents' },
  { method: 'GET', path: '/api/agents/{id}', key: 'agent' },
  { method: 'GET', path: '/api/models/download', key: 'download' },
  { method: 'POST', path: '/api/agents/{id}/corrections', key: 'corrections' },
  { method: 'DELETE', path: '/api/agents/{id}/corrections/{correctionId}', key: 'correctionUndo' },
  { method: 'POST', path: '/api/agents/{id}/glossary', key: 'glossary' },
  { method: 'POST', path: '/api/agents/{id}/glossary/import', key: 'glossaryImport' },
] as const;

export const TRANSLATE_PARAMETERS = [
  { name: 'text', type: 'string', required: true, key: 'text', limits: { words: MAX_WORDS, chars: MAX_CHARS } },
  { name: 'model_id', type: 'string', required: true, key: 'modelId' },
  { name: 'src_lang', type: 'string', required: true, key: 'srcLang' },
  { name: 'tgt_lang', type: 'string', required: true, key: 'tgtLang' },
  { name: 'stream', type: 'boolean', required: false, key: 'stream', default: 'true' },
  { name: 'explain', type: 'boolean', required: false, key: 'explain', default: 'false' },
] as const;

/** Fields of the answer and of the agent record described under the response format (issue #14). */
export const ANSWER_FIELDS = [
  { name: 'confidence', key: 'confidence' },
  { name: 'confidence (engine: llm)', key: 'confidenceLlm' },
  { name: 'explanation', key: 'explanation' },
  { name: 'quality', key: 'quality' },
  { name: 'quality_summary', key: 'qualitySummary' },
  { name: 'applied_terms', key: 'appliedTerms' },
] as const;

export const REQUIRED_HEADERS = [
  { name: 'Content-Type', value: 'application/json', key: 'contentType' },
  { name: 'X-API-Key', value: 'YOUR_API_KEY', key: 'apiKey' },
] as const;

/** cURL, from the example file the e2e suite runs (examples/translate.curl.sh). */
export function curlSample(origin: string): string {
  return curlExample(origin);
}

export function javascriptSample(origin: string): string {
  return `const response = await fetch('${origin}/api/translate/', {
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    'X-API-Key': 'YOUR_API_KEY',
  },
  body: JSON.stringify({
    text: 'Allinllachu kashanki?',
    model_id: 'YOUR_MODEL_ID',
    src_lang: 'quechua',
    tgt_lang: 'spanish',
    stream: true,
  }),
});

const reader = response.body.getReader();
const decoder = new TextDecoder();
let buffer = '';
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  buffer += decoder.decode(value, { stream: true });
  const lines = buffer.split('\\n');
  buffer = lines.pop();
  for (const line of lines) {
    if (!line.startsWith('data: ')) continue;
    const event = JSON.parse(line.slice(6));
    if (event.type === 'translation_chunk') console.log(event.content);
    if (event.type === 'translation_complete') console.log(event.final_translation, event.response_time);
    if (event.type === 'error') console.error(event.message);
  }
}`;
}

export const STREAM_SAMPLE = `data: {"type":"status","message":"Retrieving examples..."}
data: {"type":"translation_chunk","content":"¿Cómo "}
data: {"type":"translation_chunk","content":"estás?"}
data: {"type":"translation_complete","final_translation":"¿Cómo estás?","response_time":1.42,"source_text":"Allinllachu kashanki?"}`;

export const JSON_SAMPLE = `{
  "success": true,
  "data": {
    "translation": "¿Cómo estás?",
    "raw_translation": "¿Cómo estás?"
  },
  "source_text": "Allinllachu kashanki?",
  "response_time": 1.42,
  "source_language": "quechua",
  "target_language": "spanish"
}`;

export const ERROR_SAMPLE = `{ "error": "Invalid API key." }`;
