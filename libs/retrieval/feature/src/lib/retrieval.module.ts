import { Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { HybridIndex } from '@gaia/engine';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { DATA_SOURCE } from '@gaia/shared/database';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import {
  createOpenSearchClient,
  EmbeddedRetrievalIndex,
  OpenSearchRetrievalAdapter,
  RETRIEVAL_INDEX,
  RetrievalStateRepository,
} from '@gaia/retrieval/data-access';
import { BuildAgentUseCase } from './build-agent.use-case';
import { BuildAgentJobHandler } from './build-agent.job';
import { RetrievalEventsListener } from './retrieval-events.listener';
import { RetrievalRpcHandlers } from './retrieval.rpc';
import { SearchExamplesUseCase } from './search-examples.use-case';
import { RETRIEVAL_STATE } from './retrieval.tokens';

/** The retrieval service: learns agents (core memory + hybrid index) and serves hybrid search. */
@Module({
  providers: [
    { provide: RETRIEVAL_STATE, useValue: new RetrievalStateRepository() },
    {
      provide: RETRIEVAL_INDEX,
      inject: [APP_CONFIG, FILE_STORAGE, DATA_SOURCE, RETRIEVAL_STATE],
      useFactory: (config: AppConfig, storage: FileStorage, ds: DataSource, state: RetrievalStateRepository) => {
        if (config.RETRIEVAL_BACKEND === 'opensearch') {
          if (!config.OPENSEARCH_URL) throw new Error('RETRIEVAL_BACKEND=opensearch needs OPENSEARCH_URL');
          const client = createOpenSearchClient({ url: config.OPENSEARCH_URL, username: config.OPENSEARCH_USERNAME, password: config.OPENSEARCH_PASSWORD });
          return new OpenSearchRetrievalAdapter(client, {
            languagePairOf: (agentId) => state.languagePair(ds.manager, agentId),
            vectorDimension: HybridIndex.dimension,
          });
        }
        return new EmbeddedRetrievalIndex(storage);
      },
    },
    BuildAgentUseCase,
    SearchExamplesUseCase,
    BuildAgentJobHandler,
    RetrievalEventsListener,
    RetrievalRpcHandlers,
  ],
  exports: [RETRIEVAL_INDEX],
})
export class RetrievalModule {}
