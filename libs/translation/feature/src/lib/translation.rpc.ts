import { Injectable } from '@nestjs/common';
import type { TranslateRpcRequest, TranslationEventDto } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { TranslateUseCase } from './translate/translate.use-case';

/** Serves `translation.translate.v1` (a streaming RPC the gateway calls). */
@Injectable()
export class TranslationRpcHandlers {
  constructor(private readonly translateUseCase: TranslateUseCase) {}

  /**
   * Rule violations (DomainError) are raised inside the stream, before its first event: every
   * transport relays a stream's error to the caller (an error thrown before the stream exists is not
   * relayed over NATS streams).
   */
  @OnRpc('translation.translate.v1')
  async *translate(request: TranslateRpcRequest): AsyncGenerator<TranslationEventDto> {
    yield* await this.translateUseCase.start(request);
  }
}
