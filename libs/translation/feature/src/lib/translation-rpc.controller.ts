import { Injectable } from '@nestjs/common';
import type { TranslateRpcRequest, TranslationEventDto } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { TranslateUseCase } from './translate.use-case';

/** Serves `translation.translate.v1` (a streaming RPC the gateway calls). */
@Injectable()
export class TranslationRpcController {
  constructor(private readonly translateUseCase: TranslateUseCase) {}

  @OnRpc('translation.translate.v1')
  translate(request: TranslateRpcRequest): Promise<AsyncIterable<TranslationEventDto>> {
    return this.translateUseCase.start(request);
  }
}
