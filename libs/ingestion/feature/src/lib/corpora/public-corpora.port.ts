/** One downloadable corpus of a public catalogue for a language pair. */
export interface PublicCorpus {
  /** Catalogue name, e.g. `Tatoeba`. */
  name: string;
  version: string;
  /** Aligned sentence pairs. */
  pairs: number;
  /** Download size in bytes (the catalogue reports KB). */
  sizeBytes: number;
  /** As the catalogue states it; `unspecified` when it does not. */
  license: string;
  /** `moses` (two text halves) or `tmx`, each a zip. */
  format: 'moses' | 'tmx';
  url: string;
}

/** A catalogue of public parallel corpora (OPUS and catalogues with its JSON API). */
export interface PublicCorporaPort {
  list(srcLang: string, tgtLang: string): Promise<PublicCorpus[]>;
  /** The archive of a listed corpus (bounded by `maxBytes`). */
  download(url: string, maxBytes: number): Promise<Uint8Array>;
}
export const PUBLIC_CORPORA = Symbol('PUBLIC_CORPORA');
