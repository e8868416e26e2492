import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Inject, Post, Query, Req, Res, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiCookieAuth, ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { RpcResponse } from '@gaia/contracts';
import { RATE_LIMITER, type RateLimiter } from '@gaia/identity/feature';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import { callerBucket, viewerOf, type GatewayRequest, type Principal } from '../auth/principal';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options';
import { IdempotencyInterceptor } from '../http/idempotency.interceptor';
import { enforceRateRules } from '../http/rate-limit';
import { UploadBudgetInterceptor } from '../http/upload-budget.interceptor';
import { S } from '../openapi/schemas';
import { openDatasetZip } from './dataset-zip';
import { UploadsUseCase, type UploadedFile } from './uploads.use-case';

/** Multer in memory; limits come from GatewayModule (MulterModule.register), default the ingestion limits. */
const uploads = () => AnyFilesInterceptor();

/**
 * POST of a multipart upload by a signed-in user, answered 200 and replayed by its Idempotency-Key. The upload budget
 * admits it before multer reads its body (503 when the process holds too many upload bytes, 429 past the account's uploads
 * in flight, both with Retry-After).
 */
const SessionUpload = (path: string) =>
  applyDecorators(
    Post(path),
    Auth('session'),
    HttpCode(200),
    UseInterceptors(UploadBudgetInterceptor, uploads(), IdempotencyInterceptor),
    ApiCookieAuth('session'),
    ApiConsumes('multipart/form-data'),
    ApiHeader({ name: 'Idempotency-Key', required: false }),
    ApiResponse({ status: 429, schema: S.error, description: 'Too many uploads of this account in progress (Retry-After)' }),
    ApiResponse({ status: 503, schema: S.error, description: 'The server holds too many uploads at once (Retry-After)' }),
  );

export const TASK_NOT_FOUND = 'Task not found.';
export const TOO_MANY_DOWNLOADS = 'Too many dataset downloads. Please try again later.';

@ApiTags('documents')
@Controller('api')
export class DocumentsController {
  constructor(
    private readonly uploadsUseCase: UploadsUseCase,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  @SessionUpload('documents/process')
  @ApiOperation({ summary: 'Create an agent from documents: stores the originals, starts a processing task' })
  @ApiBody({ schema: S.processUpload })
  @ApiResponse({ status: 200, schema: S.processResponse })
  @ApiResponse({ status: 400, schema: S.error, description: "'Please fill in all required fields'" })
  @ApiResponse({ status: 413, schema: S.error })
  process(
    @CurrentPrincipal() p: Principal,
    @Body() body: Record<string, unknown>,
    @UploadedFiles() files: UploadedFile[] | undefined,
    @Headers('idempotency-key') idem: string | undefined,
    @Req() req: GatewayRequest,
  ): Promise<RpcResponse<'ingestion.start-processing.v1'>> {
    return this.uploadsUseCase.process(sessionUser(p), body ?? {}, files ?? [], idem, req.id);
  }

  @Get('documents/status')
  @Auth('session')
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'A processing task (owner and editors of its agent)' })
  @ApiQuery({ name: 'task_id', required: true })
  @ApiResponse({ status: 200, schema: S.task })
  @ApiResponse({ status: 404, schema: S.error })
  async status(@CurrentPrincipal() p: Principal, @Query('task_id') taskId: unknown): Promise<{ task: RpcResponse<'ingestion.get-task.v1'>['task'] }> {
    const user = sessionUser(p);
    if (typeof taskId !== 'string' || !taskId) throw DomainError.invalid('task_id is required.', 'task_id_required');
    const t = await this.rpc.call('ingestion.get-task.v1', { taskId }).catch((e: DomainError) => {
      throw e.status === 404 || e.status === 400 ? DomainError.notFound(TASK_NOT_FOUND, 'task_not_found') : e;
    });
    if (t.ownerId !== user.id) {
      await this.rpc.call('agents.access.v1', { agentId: t.agentId, viewer: viewerOf(p), need: 'edit' }).catch((e: DomainError) => {
        throw e.status === 403 || e.status === 404 ? DomainError.notFound(TASK_NOT_FOUND, 'task_not_found') : e;
      });
    }
    return { task: t.task };
  }

  @SessionUpload('update-model')
  @ApiOperation({ summary: 'Edit an agent and optionally add files (parallel_sentences_{n}): owner or editor' })
  @ApiBody({ schema: S.updateUpload })
  @ApiResponse({ status: 200, schema: S.updateResponse })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  @ApiResponse({ status: 413, schema: S.error })
  update(
    @CurrentPrincipal() p: Principal,
    @Body() body: Record<string, unknown>,
    @UploadedFiles() files: UploadedFile[] | undefined,
    @Headers('idempotency-key') idem: string | undefined,
    @Req() req: GatewayRequest,
  ): Promise<{ success: true; task_id?: string }> {
    return this.uploadsUseCase.update(sessionUser(p), body ?? {}, files ?? [], idem, req.id);
  }

  @Get('models/download')
  @Auth('optional')
  @ApiOperation({ summary: 'The dataset of an agent as dataset_{id}_files.zip (public agents: anyone; private: owner and editors)' })
  @ApiQuery({ name: 'model_id', required: true })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, description: 'application/zip' })
  @ApiResponse({ status: 404, schema: S.error })
  @ApiResponse({
    status: 429,
    schema: S.error,
    description: 'Too many dataset downloads of this client (IP when anonymous, account when signed in; Retry-After)',
  })
  async download(@CurrentPrincipal() p: Principal, @Query('model_id') modelId: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (typeof modelId !== 'string' || !modelId) throw DomainError.invalid('Please select an agent first', 'model_id_required');
    await this.limitDownloads(p, req);
    await this.rpc.call('agents.access.v1', { agentId: modelId, viewer: viewerOf(p), need: 'read' });
    const zip = await openDatasetZip(() => this.rpc.call('ingestion.prepare-download.v1', { agentId: modelId }), this.storage);
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Length', String(zip.size));
    res.setHeader('Content-Disposition', `attachment; filename="dataset_${modelId.replace(/[^A-Za-z0-9_-]/g, '_')}_files.zip"`);
    res.setHeader('Cache-Control', 'private, no-store');
    try {
      await pipeline(zip.stream, res);
    } catch (e) {
      // the client went away mid-download: nobody to answer
      if ((e as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw e;
    }
  }

  /**
   * A public agent's dataset is anyone's download: each client has a number of downloads per window (the account when
   * signed in, session or its API key; else the client IP), 429 rate_limited with Retry-After past it.
   */
  private limitDownloads(p: Principal, req: Request): Promise<void> {
    const rules = viewerOf(p) ? this.options.datasetDownloadsPerAccount : this.options.datasetDownloadsPerIp;
    return enforceRateRules(this.limiter, `dataset-download:${callerBucket(p, req)}`, rules, TOO_MANY_DOWNLOADS);
  }
}
