import type { PublicCorpusDto } from '@gaia/contracts';
import { apiJson } from './http';

export const listPublicCorpora = (srcLang: string, tgtLang: string) =>
  apiJson<{ corpora: PublicCorpusDto[] }>(
    `/api/corpora?src_lang=${encodeURIComponent(srcLang)}&tgt_lang=${encodeURIComponent(tgtLang)}`,
    {},
    'Failed to search public data',
  );
export const importPublicCorpus = (body: { src_lang: string; tgt_lang: string; corpus: string; format: 'moses' | 'tmx'; model_id?: string }) =>
  apiJson<{ task_id: string; model_id: string; corpus: PublicCorpusDto }>('/api/corpora/import', { method: 'POST', body }, 'Failed to import the corpus');
