import { DynamicModule, Inject, Logger, Module, type NestModule, type OnModuleInit } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, ApplicationConfig, HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { MulterModule } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import type { INestApplication } from '@nestjs/common';
import { IdentityModule, type IdentityOptions } from '@gaia/identity/feature';
import { APP_CONFIG, BYTES_PER_MB, type AppConfig } from '@gaia/shared/config';
import { AccountController } from './account/account.controller';
import { UserViewService } from './account/user-view.service';
import { AgentsController } from './agents/agents.controller';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { UsageController } from './api-keys/usage.controller';
import { PlansController } from './account/plans.controller';
import { DeleteAccountUseCase } from './privacy/delete-account.use-case';
import { ExportAccountUseCase } from './privacy/export-account.use-case';
import { PrivacyController } from './privacy/privacy.controller';
import { PrivacyJobs } from './privacy/privacy.job';
import { CorporaController } from './corpora/corpora.controller';
import { AuthController } from './auth/auth.controller';
import { AuthGuard } from './auth/auth.guard';
import { DocumentsController } from './documents/documents.controller';
import { UploadsUseCase } from './documents/uploads.use-case';
import { DEFAULT_GATEWAY_OPTIONS, GATEWAY_OPTIONS, type GatewayOptions } from './gateway.options';
import { DomainErrorFilter } from './http/domain-error.filter';
import { FieldLimitsPipe } from './http/field-limits.pipe';
import { IdempotencyInterceptor, IdempotentRequests } from './http/idempotency.interceptor';
import { installSecurityHeaders } from './http/security-headers';
import { DEFAULT_UPLOAD_MEMORY_BUDGET_MB, multipartLimits, UploadBudget } from './http/upload-budget';
import { UploadBudgetInterceptor } from './http/upload-budget.interceptor';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi/openapi';
import { PublicController } from './public/public.controller';
import { LocalRealtimeFanout, REALTIME_FANOUT } from './realtime/realtime-fanout.port';
import { RealtimeGateway } from './realtime/realtime.gateway';
import { RealtimeListener } from './realtime/realtime.listener';
import { RedisRealtimeFanout } from './realtime/redis-realtime-fanout.adapter';
import { TeamController } from './team/team.controller';
import { CorrectionsController } from './corrections/corrections.controller';
import { GlossaryController } from './glossary/glossary.controller';
import { TranslateController } from './translate/translate.controller';
import { TranslateService } from './translate/translate.service';
import { TranslationMeter } from './translate/translation-meter';
import { TranslateBatchController } from './translate-batch/translate-batch.controller';
import { TranslateBatchUseCase } from './translate-batch/translate-batch.use-case';
import { TranslateFileController } from './translate-file/translate-file.controller';
import { TranslateFileJobHandler } from './translate-file/translate-file.job';
import { TranslateFileTaskStore } from './translate-file/translate-file-task.store';
import { TranslateFileUseCase } from './translate-file/translate-file.use-case';

export const GATEWAY_CONTROLLERS = [
  AuthController,
  AccountController,
  PublicController,
  ApiKeysController,
  UsageController,
  PlansController,
  PrivacyController,
  CorporaController,
  TranslateController,
  TranslateBatchController,
  TranslateFileController,
  AgentsController,
  DocumentsController,
  TeamController,
  CorrectionsController,
  GlossaryController,
];

export interface GatewayModuleOptions extends Partial<GatewayOptions> {
  identity?: Partial<IdentityOptions>;
}

/**
 * The HTTP edge: REST + SSE controllers, Socket.IO, OpenAPI at /api/docs, the `{ error }` filter and the
 * auth/CSRF guard. Calls other services only through RPC_CLIENT. Needs CoreModule with `identitySchema`.
 */
@Module({})
export class GatewayModule implements OnModuleInit, NestModule {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly modules: ModulesContainer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {
    // Installed as soon as the HTTP server exists (NestFactory.create), before the web app's static files.
    this.installSecurityHeaders();
  }

  /** Before Nest registers its routes; covers apps whose HTTP server is created after the modules (testing). */
  configure(): void {
    this.installSecurityHeaders();
  }

  private installSecurityHeaders(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter?.getType() === 'express') installSecurityHeaders(adapter.getInstance<express.Express>());
  }

  static forRoot(options: GatewayModuleOptions = {}): DynamicModule {
    const { identity, ...rest } = options;
    const o: GatewayOptions = { ...DEFAULT_GATEWAY_OPTIONS, ...rest };
    return {
      module: GatewayModule,
      imports: [
        IdentityModule.forRoot(identity),
        // Uploads stay in memory with hard limits, the one check of file count and size: an oversize file or too many files
        // is refused (413, mapped in errorResponse) before anything is stored. The bytes of all uploads in flight are bounded
        // by the UploadBudget (UPLOAD_MEMORY_BUDGET_MB), reserved by UploadBudgetInterceptor before multer reads a byte.
        MulterModule.register({ limits: multipartLimits(o) }),
      ],
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        { provide: GATEWAY_OPTIONS, useValue: o },
        { provide: APP_FILTER, useClass: DomainErrorFilter },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useClass: FieldLimitsPipe },
        IdempotencyInterceptor,
        IdempotentRequests,
        {
          provide: UploadBudget,
          inject: [APP_CONFIG],
          useFactory: (c: AppConfig) => new UploadBudget((c.UPLOAD_MEMORY_BUDGET_MB ?? DEFAULT_UPLOAD_MEMORY_BUDGET_MB) * BYTES_PER_MB),
        },
        UploadBudgetInterceptor,
        UserViewService,
        DeleteAccountUseCase,
        ExportAccountUseCase,
        PrivacyJobs,
        UploadsUseCase,
        TranslateService,
        TranslationMeter,
        TranslateBatchUseCase,
        TranslateFileTaskStore,
        TranslateFileUseCase,
        TranslateFileJobHandler,
        {
          provide: REALTIME_FANOUT,
          inject: [APP_CONFIG],
          useFactory: (c: AppConfig) => (c.REDIS_URL ? new RedisRealtimeFanout(c.REDIS_URL) : new LocalRealtimeFanout()),
        },
        RealtimeGateway,
        RealtimeListener,
      ],
      exports: [TranslateService, TranslationMeter],
    };
  }

  /**
   * Runs before Nest installs its 404 handler, so what it registers on the HTTP server is reachable:
   * trust proxy (client IPs for per-IP limits) and the OpenAPI document + UI.
   */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter || adapter.getType() !== 'express') return;
    const instance = adapter.getInstance<express.Express>();
    if (this.config.TRUST_PROXY) instance.set('trust proxy', true);
    const appLike = {
      container: { getModules: () => this.modules, isGlobalModule: () => false },
      config: new ApplicationConfig(),
      getHttpAdapter: () => adapter,
      useStaticAssets: (path: string, opts: { prefix?: string }) => instance.use(opts.prefix ?? '/', express.static(path, { index: false })),
    } as unknown as INestApplication;
    SwaggerModule.setup(OPENAPI_PATH, appLike, () => buildOpenApiDocument(appLike, GATEWAY_CONTROLLERS), {
      ui: this.options.swaggerUi,
      jsonDocumentUrl: `${OPENAPI_PATH}-json`,
      customSiteTitle: 'Gaia API',
    });
    this.logger.log(`OpenAPI at /${OPENAPI_PATH} (JSON at /${OPENAPI_PATH}-json)`);
  }
}
