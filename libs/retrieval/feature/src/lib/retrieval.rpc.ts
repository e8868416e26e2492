import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { SearchExamplesUseCase } from './search-examples.use-case';

/** RPC servers of the retrieval service: map the request to a use case, nothing else. */
@Injectable()
export class RetrievalRpcHandlers {
  constructor(private readonly searchExamples: SearchExamplesUseCase) {}

  @OnRpc('retrieval.search.v1')
  search(req: RpcRequest<'retrieval.search.v1'>): Promise<RpcResponse<'retrieval.search.v1'>> {
    return this.searchExamples.execute(req);
  }
}
