import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { APP_CONFIG, BYTES_PER_MB, type AppConfig } from '@gaia/shared/config';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import {
  AGENT_ARTIFACTS,
  AGENT_DIRECTORY,
  AGENT_FEEDBACK,
  AGENT_LOADER,
  CachedAgentFeedback,
  RpcAgentFeedbackSource,
  AgentLoader,
  BuiltinTranslationEngine,
  FileStorageAgentArtifacts,
  RpcAgentDirectory,
  RpcRetrievalExamples,
  USAGE_RECORDER,
  UsageRecorder,
  buildAgentBrain,
  type AgentArtifactsPort,
} from '@gaia/translation/data-access';
import {
  BUILTIN_ENGINE,
  FallbackTranslationEngine,
  LLM_CLIENT,
  LLM_CONFIG,
  LLM_ENGINE,
  LlmClient,
  LlmTranslationEngine,
  loadLlmConfig,
  type LlmConfig,
  type TranslationEnginePort,
} from '@gaia/translation/llm';
import { TranslateUseCase } from './translate/translate.use-case';
import { QualityAbJobHandler } from './quality-ab/quality-ab.job';
import { QualityAbListener } from './quality-ab/quality-ab.listener';
import { QualityAbUseCase } from './quality-ab/quality-ab.use-case';
import { TranslationRpcHandlers } from './translation.rpc';

export interface TranslationModuleOptions {
  /** Provider of `AGENT_DIRECTORY` (agent profiles); default: `RpcAgentDirectory` (`agents.resolve.v1`). */
  directory?: Provider;
  /** Provider of `AGENT_ARTIFACTS` (learned model + index bytes); default: `FileStorageAgentArtifacts` on `FILE_STORAGE`. */
  artifacts?: Provider;
  /** LLM configuration; default from `APP_CONFIG` / the environment (`OPENAI_*`); `null` disables the LLM engine. */
  llm?: LlmConfig | null;
  /** LRU budget of loaded agents in bytes; default: the validated config's `TRANSLATION_AGENT_CACHE_MB`. */
  agentCacheBytes?: number;
  /** Candidates K of the built-in engine (default 5). */
  builtinK?: number;
}

/**
 * The translation service: `translation.translate.v1` (streaming RPC) over the built-in and LLM
 * engines, agents kept warm in an LRU, usage recorded through the outbox. Needs the global
 * DatabaseModule and MessagingModule, and `translationSchema` in the app's schema bundles.
 */
/** Budget when no app config is present (module tests); apps take `TRANSLATION_AGENT_CACHE_MB` from their validated config. */
const DEFAULT_AGENT_CACHE_MB = 384;
/** Feedback cache budget when no app config is present; apps take `TRANSLATION_FEEDBACK_CACHE_MB` from their validated config. */
const DEFAULT_FEEDBACK_CACHE_MB = 64;

@Module({})
export class TranslationModule {
  static forRoot(options: TranslationModuleOptions = {}): DynamicModule {
    const providers: Provider[] = [
      options.directory ?? { provide: AGENT_DIRECTORY, inject: [RPC_CLIENT], useFactory: (rpc: RpcClient) => new RpcAgentDirectory(rpc) },
      options.artifacts ?? { provide: AGENT_ARTIFACTS, inject: [FILE_STORAGE], useFactory: (storage: FileStorage) => new FileStorageAgentArtifacts(storage) },
      {
        provide: LLM_CONFIG,
        inject: [{ token: APP_CONFIG, optional: true }],
        // The app's validated config (OPENAI_*); without one (module tests) the LLM engine is off unless `options.llm` is given.
        useFactory: (app: AppConfig | undefined) => (options.llm !== undefined ? options.llm : loadLlmConfig((app ?? {}) as Record<string, unknown>)),
      },
      {
        provide: LLM_CLIENT,
        // The CLOCK counts `Retry-After` dates (optional: module tests without CoreModule use the system clock).
        inject: [LLM_CONFIG, { token: CLOCK, optional: true }],
        useFactory: (c: LlmConfig | null, clock: Clock | undefined) => (c ? new LlmClient(c, { clock }) : null),
      },
      { provide: BUILTIN_ENGINE, useValue: new BuiltinTranslationEngine(options.builtinK ?? 5) },
      {
        provide: LLM_ENGINE,
        inject: [LLM_CLIENT, BUILTIN_ENGINE],
        useFactory: (client: LlmClient | null, builtin: TranslationEnginePort) =>
          client ? new FallbackTranslationEngine(new LlmTranslationEngine(client), builtin) : null,
      },
      {
        provide: AGENT_LOADER,
        inject: [AGENT_ARTIFACTS, RPC_CLIENT, { token: APP_CONFIG, optional: true }],
        useFactory: (artifacts: AgentArtifactsPort, rpc: RpcClient, app: AppConfig | undefined) => {
          // With an external retrieval index the replica keeps only the core memory and asks the retrieval service.
          const remote = app?.RETRIEVAL_BACKEND === 'opensearch' ? new RpcRetrievalExamples(rpc) : null;
          return new AgentLoader(
            artifacts,
            (a, agent) =>
              buildAgentBrain(a, agent, options.builtinK ?? 5, remote ? { kind: 'remote', agentId: agent.agentId, port: remote } : { kind: 'embedded' }),
            { maxBytes: options.agentCacheBytes ?? (app?.TRANSLATION_AGENT_CACHE_MB ?? DEFAULT_AGENT_CACHE_MB) * BYTES_PER_MB },
          );
        },
      },
      {
        provide: AGENT_FEEDBACK,
        inject: [RPC_CLIENT, { token: APP_CONFIG, optional: true }, { token: CLOCK, optional: true }],
        useFactory: (rpc: RpcClient, app: AppConfig | undefined, clock: Clock | undefined) =>
          new CachedAgentFeedback(new RpcAgentFeedbackSource(rpc), {
            maxBytes: (app?.TRANSLATION_FEEDBACK_CACHE_MB ?? DEFAULT_FEEDBACK_CACHE_MB) * BYTES_PER_MB,
            clock,
          }),
      },
      {
        provide: USAGE_RECORDER,
        inject: [UNIT_OF_WORK, OUTBOX, RPC_CLIENT],
        useFactory: (uow: UnitOfWork, outbox: Outbox, rpc: RpcClient) => new UsageRecorder(uow, outbox, rpc),
      },
      TranslateUseCase,
      TranslationRpcHandlers,
      QualityAbUseCase,
      QualityAbListener,
      QualityAbJobHandler,
    ];
    return {
      module: TranslationModule,
      providers,
      exports: [TranslateUseCase, AGENT_LOADER, LLM_CONFIG],
    };
  }
}
