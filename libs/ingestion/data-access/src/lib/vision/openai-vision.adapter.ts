import OpenAI from 'openai';
import type { SentencePair, VisionExtractor, VisionInput } from '@gaia/ingestion/parsers';

export interface OpenAiVisionOptions {
  apiKey?: string;
  baseURL?: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
}

const PROMPT = (src: string, tgt: string) =>
  `The attached page holds parallel text in two languages: "${src}" (source) and "${tgt}" (target). ` +
  `Extract every sentence pair exactly as written (no translation, no correction) and answer only JSON: ` +
  `{"pairs":[{"source":"<${src} text>","target":"<${tgt} text>"}]}. Answer {"pairs":[]} when there is no parallel text.`;

/** Reads the pairs out of the model's answer (tolerates code fences and text around the JSON). */
export function pairsFromAnswer(text: string): SentencePair[] {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return [];
  let data: unknown;
  try {
    data = JSON.parse(text.slice(start, end + 1));
  } catch {
    return [];
  }
  const list = (data as { pairs?: unknown }).pairs;
  if (!Array.isArray(list)) return [];
  return list
    .filter((p): p is { source: unknown; target: unknown } => typeof p === 'object' && p !== null)
    .map((p) => ({ source: typeof p.source === 'string' ? p.source : '', target: typeof p.target === 'string' ? p.target : '' }))
    .filter((p) => p.source && p.target);
}

/**
 * VisionExtractor on an OpenAI-compatible chat endpoint with image input (OPENAI_VISION_MODEL):
 * images go as data-URL `image_url` parts, PDFs (scanned pages) as a `file` part with the pages listed.
 */
export class OpenAiVisionExtractor implements VisionExtractor {
  private readonly client: OpenAI;

  constructor(private readonly o: OpenAiVisionOptions) {
    this.client = new OpenAI({ apiKey: o.apiKey ?? 'none', baseURL: o.baseURL, timeout: o.timeoutMs ?? 120_000, maxRetries: o.maxRetries ?? 2 });
  }

  async extractPairs(input: VisionInput): Promise<SentencePair[]> {
    const data = `data:${input.mime};base64,${Buffer.from(input.bytes).toString('base64')}`;
    const text = PROMPT(input.srcLang, input.tgtLang) + (input.pages?.length ? ` Read only page(s) ${input.pages.join(', ')}.` : '');
    const media =
      input.mime === 'application/pdf'
        ? ({ type: 'file', file: { filename: input.filename, file_data: data } } as const)
        : ({ type: 'image_url', image_url: { url: data } } as const);
    const res = await this.client.chat.completions.create({
      model: this.o.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: [{ type: 'text', text }, media] }],
    });
    return pairsFromAnswer(res.choices[0]?.message?.content ?? '');
  }
}
