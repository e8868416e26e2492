import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse, TranslateRpcRequest, TranslationEventDto } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { ExtractPairsUseCase } from './extract-pairs.use-case';
import { TranslateUseCase } from './translate.use-case';

/** Serves `translation.translate.v1` (a streaming RPC the gateway calls) and `translation.extract-pairs.v1` (ingestion). */
@Injectable()
export class TranslationRpcController {
  constructor(
    private readonly translateUseCase: TranslateUseCase,
    private readonly extractPairsUseCase: ExtractPairsUseCase,
  ) {}

  /**
   * Rule violations (DomainError) are raised inside the stream, before its first event: every
   * transport relays a stream's error to the caller (an error thrown before the stream exists is not
   * relayed over NATS streams).
   */
  @OnRpc('translation.translate.v1')
  async *translate(request: TranslateRpcRequest): AsyncGenerator<TranslationEventDto> {
    yield* await this.translateUseCase.start(request);
  }

  @OnRpc('translation.extract-pairs.v1')
  extractPairs(request: RpcRequest<'translation.extract-pairs.v1'>): Promise<RpcResponse<'translation.extract-pairs.v1'>> {
    return this.extractPairsUseCase.execute(request);
  }
}
