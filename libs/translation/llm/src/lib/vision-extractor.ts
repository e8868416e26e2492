import { LlmClient, type ChatContentPart } from './llm-client';
import { LlmUnavailableError } from './llm.errors';
import { TokenUsage } from './token-usage';

export interface ExtractedPair {
  source: string;
  target: string;
}

export interface ExtractionResult {
  pairs: ExtractedPair[];
  usage: TokenUsage;
}

export const VISION_EXTRACTOR = Symbol('VISION_EXTRACTOR');

/**
 * A vision extractor shaped like ingestion's `VisionExtractor` (`extractPairs(input) → pairs`), or null
 * without LLM configuration. Apps provide it as ingestion's VISION_EXTRACTOR.
 */
export function ingestionVisionExtractor(client: LlmClient | null): { extractPairs(input: PageExtractionInput): Promise<ExtractedPair[]> } | null {
  if (!client) return null;
  const extractor = new LlmVisionExtractor(client);
  return { extractPairs: async (input) => (await extractor.extract(input)).pairs };
}

export interface VisionExtractorPort {
  extractPairs(imageBytes: Uint8Array, mime: string, srcLang: string, tgtLang: string): Promise<ExtractionResult>;
}

/** Input shape of ingestion's `VisionExtractor` (`@gaia/ingestion/parsers`): images, or PDF pages. */
export interface PageExtractionInput {
  bytes: Uint8Array;
  mime: string;
  srcLang: string;
  tgtLang: string;
  filename: string;
  /** 1-based pages to read when `mime` is a PDF. */
  pages?: number[];
}

const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif']);

/**
 * Vision extraction for ingestion: sends a page image to the vision model (`OPENAI_VISION_MODEL`, else
 * the chat model) in JSON mode and returns the parallel sentence pairs on it. The answer is parsed
 * defensively (code fences, prose around the JSON, alternative key names, bare arrays).
 */
export class LlmVisionExtractor implements VisionExtractorPort {
  constructor(private readonly client: LlmClient) {}

  async extractPairs(imageBytes: Uint8Array, mime: string, srcLang: string, tgtLang: string): Promise<ExtractionResult> {
    return this.extract({ bytes: imageBytes, mime, srcLang, tgtLang, filename: 'page' });
  }

  /**
   * Images go as `image_url` data URLs; PDFs (scanned pages) as a `file` content part with the pages
   * to read named in the instruction (OpenAI vision models; other servers may only take images).
   */
  async extract(input: PageExtractionInput): Promise<ExtractionResult> {
    const { srcLang, tgtLang } = input;
    const type = input.mime.toLowerCase().trim();
    const b64 = Buffer.from(input.bytes).toString('base64');
    let part: ChatContentPart;
    let where = 'this page';
    if (IMAGE_MIMES.has(type)) {
      part = { type: 'image_url', image_url: { url: `data:${type === 'image/jpg' ? 'image/jpeg' : type};base64,${b64}` } };
    } else if (type === 'application/pdf') {
      part = { type: 'file', file: { filename: input.filename || 'document.pdf', file_data: `data:application/pdf;base64,${b64}` } };
      where = input.pages?.length ? `page${input.pages.length > 1 ? 's' : ''} ${input.pages.join(', ')} of this PDF` : 'this PDF';
    } else {
      throw new LlmUnavailableError('client_error', `Unsupported type for vision extraction: ${input.mime}`);
    }
    const res = await this.client.complete({
      model: this.client.config.visionModel,
      jsonMode: true,
      temperature: 0,
      maxTokens: 4000,
      messages: [
        {
          role: 'system',
          content:
            'You extract parallel sentences from page images. Answer with JSON only, exactly of the form ' +
            '{"pairs":[{"source":"...","target":"..."}]}: one object per sentence that appears on the page in both languages, ' +
            'text copied exactly as printed (no translation of your own, no corrections). Answer {"pairs":[]} when there are none.',
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: `Source language: ${srcLang}. Target language: ${tgtLang}. List the sentence pairs on ${where}.` },
            part,
          ],
        },
      ],
    });
    return { pairs: parsePairs(res.choices[0] ?? '', srcLang, tgtLang), usage: res.usage };
  }
}

/** Parses a model's answer into sentence pairs, tolerating the usual deviations; never throws. */
export function parsePairs(answer: string, srcLang = 'source', tgtLang = 'target'): ExtractedPair[] {
  const json = parseLooseJson(answer);
  const list: unknown[] = Array.isArray(json)
    ? json
    : json && typeof json === 'object'
      ? (Object.values(json as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined) ?? []
      : [];
  const srcKeys = ['source', 'src', 'source_text', 'original', srcLang.toLowerCase()];
  const tgtKeys = ['target', 'tgt', 'target_text', 'translation', tgtLang.toLowerCase()];
  const pairs: ExtractedPair[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    let source: unknown;
    let target: unknown;
    if (Array.isArray(item) && item.length >= 2) [source, target] = item;
    else if (item && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v] as const);
      source = entries.find(([k]) => srcKeys.includes(k))?.[1];
      target = entries.find(([k]) => tgtKeys.includes(k))?.[1];
    }
    if (typeof source !== 'string' || typeof target !== 'string') continue;
    const s = source.replace(/\s+/g, ' ').trim();
    const t = target.replace(/\s+/g, ' ').trim();
    if (!s || !t) continue;
    const key = `${s}\u0000${t}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push({ source: s, target: t });
  }
  return pairs;
}

function parseLooseJson(text: string): unknown {
  const unfenced = text.replace(/```(?:json)?/gi, '').trim();
  const attempts = [unfenced];
  const obj = unfenced.indexOf('{');
  const arr = unfenced.indexOf('[');
  const objSlice = obj >= 0 ? unfenced.slice(obj, unfenced.lastIndexOf('}') + 1) : '';
  const arrSlice = arr >= 0 ? unfenced.slice(arr, unfenced.lastIndexOf(']') + 1) : '';
  // The outermost bracket comes first in the text.
  if (arr >= 0 && (obj < 0 || arr < obj)) attempts.push(arrSlice, objSlice);
  else attempts.push(objSlice, arrSlice);
  for (const a of attempts) {
    try {
      return JSON.parse(a);
    } catch {
      /* next */
    }
  }
  return null;
}
