import { Inject, Injectable, Optional } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { LlmUnavailableError, VISION_EXTRACTOR, type LlmVisionExtractor } from '@gaia/translation/llm';

type Req = RpcRequest<'translation.extract-pairs.v1'>;
type Res = RpcResponse<'translation.extract-pairs.v1'>;

/** Vision extraction served to ingestion (which cannot call the LLM itself): file in storage → pairs. */
@Injectable()
export class ExtractPairsUseCase {
  constructor(
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Optional() @Inject(VISION_EXTRACTOR) private readonly vision: LlmVisionExtractor | null,
  ) {}

  async execute(req: Req): Promise<Res> {
    if (!this.vision) throw new DomainError('vision_unavailable', 'Vision extraction needs an LLM (set OPENAI_API_KEY and OPENAI_VISION_MODEL).', 503);
    if (!(await this.storage.exists(req.fileKey))) throw DomainError.notFound(`File not found: ${req.filename ?? req.fileKey}`, 'file_not_found');
    const bytes = await this.storage.get(req.fileKey);
    try {
      return await this.vision.extract({ bytes, mime: req.mime, srcLang: req.srcLang, tgtLang: req.tgtLang, filename: req.filename ?? 'page', pages: req.pages });
    } catch (e) {
      if (e instanceof LlmUnavailableError) {
        if (e.reason === 'client_error' && !e.status) throw DomainError.invalid(e.message, 'unsupported_type');
        throw new DomainError('vision_unavailable', `Vision extraction failed: ${e.message}`, 503);
      }
      throw e;
    }
  }
}
