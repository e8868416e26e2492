import { z } from 'zod';
import { DomainError } from '@gaia/shared/kernel';
import type { PublicCorporaPort, PublicCorpus } from './public-corpora.port';

/** The formats Gaia imports, as the catalogue's `preprocessing` parameter names them. */
const FORMATS = ['moses', 'tmx'] as const;
const BYTES_PER_KB = 1024;
/** Longest wait for the catalogue or a download. */
const REQUEST_TIMEOUT_MS = 60_000;
/** Where OPUS keeps its release archives (the catalogue answers URLs there); any other origin but the catalogue's own is refused. */
export const OPUS_ARCHIVE_ORIGINS: readonly string[] = ['https://object.pouta.csc.fi'];
/** Redirects a download may follow (each to an allowed origin). */
const MAX_ARCHIVE_REDIRECTS = 3;
const HTTP_REDIRECT = new Set([301, 302, 303, 307, 308]);

const entrySchema = z.object({
  corpus: z.string().min(1).max(200),
  version: z.string().max(50).default(''),
  alignment_pairs: z.coerce.number().nonnegative().default(0),
  size: z.coerce.number().nonnegative().default(0),
  url: z.string().url().max(2000),
  preprocessing: z.string().max(20).optional(),
  license: z.string().max(500).optional(),
});
const answerSchema = z.object({ corpora: z.array(z.unknown()) });

/**
 * OPUS's JSON API (https://opus.nlpl.eu/opusapi/): `?source=&target=&preprocessing=moses|tmx&version=latest`
 * answers `{corpora: [{corpus, version, alignment_pairs, size (KB), url, preprocessing, …}]}`; the url is a zip.
 * OPUS does not state licenses in the API: a catalogue that does (`license`) is recorded as given.
 */
/** A catalogue or archive host that cannot be reached (refused, DNS, timeout) is a 502, like one answering an error. */
async function reach(url: URL | string, code: 'catalogue_unavailable' | 'corpus_unavailable', init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (e) {
    throw new DomainError(code, `The public corpus service cannot be reached (${e instanceof Error ? e.message : String(e)}).`, 502);
  }
}

/**
 * Archive URLs come from the catalogue's answer, not from the operator: a download goes only to the catalogue's own
 * origin or OPUS's object store, never to an address an answer or a redirect names elsewhere (an internal service,
 * the cloud metadata address: SSRF). Redirects are followed by hand, each hop checked.
 */
export class OpusCatalogueAdapter implements PublicCorporaPort {
  private readonly archiveOrigins: ReadonlySet<string>;

  constructor(private readonly baseUrl: string) {
    this.archiveOrigins = new Set([new URL(baseUrl).origin, ...OPUS_ARCHIVE_ORIGINS]);
  }

  /** The archive URL when it is http(s), without credentials, on an allowed origin; null otherwise. */
  private allowedArchive(raw: string, relativeTo?: URL): URL | null {
    let url: URL;
    try {
      url = new URL(raw, relativeTo);
    } catch {
      return null;
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
    return this.archiveOrigins.has(url.origin) ? url : null;
  }

  async list(srcLang: string, tgtLang: string): Promise<PublicCorpus[]> {
    const out: PublicCorpus[] = [];
    for (const format of FORMATS) {
      const url = new URL(this.baseUrl);
      url.search = new URLSearchParams({ source: srcLang, target: tgtLang, preprocessing: format, version: 'latest' }).toString();
      const res = await reach(url, 'catalogue_unavailable', { headers: { accept: 'application/json' } });
      if (!res.ok) throw new DomainError('catalogue_unavailable', `The corpus catalogue answered ${res.status}.`, 502);
      const parsed = answerSchema.safeParse(await res.json());
      if (!parsed.success) throw new DomainError('catalogue_unavailable', 'The corpus catalogue answered in an unexpected format.', 502);
      for (const raw of parsed.data.corpora) {
        const e = entrySchema.safeParse(raw);
        if (!e.success || (e.data.preprocessing && e.data.preprocessing !== format) || !this.allowedArchive(e.data.url)) continue;
        out.push({
          name: e.data.corpus,
          version: e.data.version,
          pairs: e.data.alignment_pairs,
          sizeBytes: e.data.size * BYTES_PER_KB,
          license: e.data.license ?? 'unspecified',
          format,
          url: e.data.url,
        });
      }
    }
    return out.sort((a, b) => b.pairs - a.pairs || a.name.localeCompare(b.name) || a.format.localeCompare(b.format));
  }

  async download(url: string, maxBytes: number): Promise<Uint8Array> {
    const res = await this.fetchArchive(url);
    if (!res.ok || !res.body) throw new DomainError('corpus_unavailable', `The corpus download answered ${res.status}.`, 502);
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new DomainError('file_too_large', `The corpus is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`, 413);
      chunks.push(chunk);
    }
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  /** GET of an archive on an allowed origin, following at most MAX_ARCHIVE_REDIRECTS redirects to allowed origins only. */
  private async fetchArchive(raw: string): Promise<Response> {
    const first = this.allowedArchive(raw);
    if (!first) throw new DomainError('corpus_host_not_allowed', 'The corpus archive is not on a host that is allowed.', 502);
    let url: URL = first;
    for (let hop = 0; ; hop++) {
      const res = await reach(url, 'corpus_unavailable', { redirect: 'manual' });
      if (!HTTP_REDIRECT.has(res.status)) return res;
      await res.body?.cancel();
      const next: URL | null = hop < MAX_ARCHIVE_REDIRECTS ? this.allowedArchive(res.headers.get('location') ?? '', url) : null;
      if (!next) throw new DomainError('corpus_host_not_allowed', 'The corpus archive moved to a host that is not allowed.', 502);
      url = next;
    }
  }
}
