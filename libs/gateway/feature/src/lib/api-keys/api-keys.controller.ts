import { Body, Controller, Get, HttpCode, Inject, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  API_KEY_SECRET_SHOWN_ONCE,
  createApiKeyBodySchema,
  PAGE_SIZE_MAX,
  revokeApiKeyBodySchema,
  type ApiKeyDto,
  type CreateApiKeyReplayResponse,
  type CreateApiKeyResponse,
} from '@gaia/contracts';
import type { ApiKeyRecord } from '@gaia/identity/data-access';
import { ApiKeyAuthentication, ApiKeysService } from '@gaia/identity/feature';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { IdempotencyInterceptor, IdempotentReplayAs } from '../http/idempotency.interceptor';
import { pageOf, parsePage } from '../http/pagination';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';

/** The replayable form of a key creation: metadata only, the secret is never stored. */
export const keyCreationReplay = (answer: unknown): CreateApiKeyReplayResponse => ({
  success: true,
  api_key: null,
  key: (answer as CreateApiKeyResponse).key,
  secret_shown_once: true,
  message: API_KEY_SECRET_SHOWN_ONCE,
});

export function toApiKeyDto(k: ApiKeyRecord): ApiKeyDto {
  return { key_id: k.id, name: k.name, prefix: `gaia_${k.prefix}`, created_at: k.createdAt.toISOString(), revoked: !!k.revokedAt };
}

/** The signed-in user's API keys (the full key is answered once, at creation) and their usage. */
@ApiTags('api-keys')
@ApiCookieAuth('session')
@Controller('api/api-keys')
export class ApiKeysController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly keyAuth: ApiKeyAuthentication,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  @Post('create')
  @Auth('session')
  @HttpCode(200)
  @UseInterceptors(IdempotencyInterceptor)
  @IdempotentReplayAs(keyCreationReplay)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'A repeat answers the key metadata with `api_key: null` and `secret_shown_once: true` (header Idempotent-Replayed): the secret is never stored',
  })
  @ApiOperation({ summary: 'Create a key; `api_key` is shown once (stored only as a SHA-256 hash; an idempotent replay answers the metadata without it)' })
  @ApiBody({ schema: S.createKey })
  @ApiResponse({
    status: 200,
    schema: S.createKeyResponse,
    description: 'The new key; on an Idempotency-Key replay `api_key` is null, `secret_shown_once` true and `message` explains',
  })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 401, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 422, schema: S.error, description: 'Idempotency-Key reused with a different body' })
  async create(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<CreateApiKeyResponse> {
    const b = parseBody(createApiKeyBodySchema, body, 'Please enter a name for the API key.');
    const { apiKey, record } = await this.keys.create(sessionUser(p).id, b.name);
    return { success: true, api_key: apiKey, key: toApiKeyDto(record) };
  }

  @Get('list')
  @Auth('session')
  @ApiOperation({ summary: "The caller's keys, newest first (`uid` query accepted and ignored); cursor-paginated" })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_MAX } })
  @ApiQuery({ name: 'cursor', required: false, description: '`next_cursor` of the previous page' })
  @ApiResponse({ status: 200, schema: S.keyList })
  @ApiResponse({ status: 400, schema: S.error, description: 'Invalid limit or cursor' })
  @ApiResponse({ status: 401, schema: S.error })
  async list(
    @CurrentPrincipal() p: Principal,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<{ success: true; api_keys: ApiKeyDto[]; next_cursor: string | null }> {
    const page = parsePage({ limit, cursor });
    const keys = await this.keys.list(sessionUser(p).id, { limit: page.limit + 1, afterId: page.afterId });
    const { items, nextCursor } = pageOf(keys, page.limit, (k) => k.id);
    return { success: true, api_keys: items.map(toApiKeyDto), next_cursor: nextCursor };
  }

  @Post('revoke')
  @Auth('session')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key (it answers 401 from then on)' })
  @ApiBody({ schema: S.revokeKey })
  @ApiResponse({ status: 200, schema: S.success })
  @ApiResponse({ status: 404, schema: S.error })
  async revoke(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<{ success: true }> {
    const b = parseBody(revokeApiKeyBodySchema, body, 'key_id is required.');
    // through the key cache: this replica refuses the key from the next request on
    await this.keyAuth.revoke(sessionUser(p).id, b.key_id);
    return { success: true };
  }

  @Get('usage')
  @Auth('session')
  @ApiOperation({ summary: "Usage of one of the caller's keys: requests, tokens, costs ($3/M input + $15/M output tokens)" })
  @ApiQuery({ name: 'key_id', required: true })
  @ApiResponse({ status: 200, schema: S.keyUsage })
  @ApiResponse({ status: 404, schema: S.error })
  async usage(@CurrentPrincipal() p: Principal, @Query('key_id') keyId: unknown): Promise<{ success: true; usage: unknown }> {
    const key = await this.keys.getOwned(sessionUser(p).id, keyId);
    const usage = await this.rpc.call('billing.key-usage.v1', { keyId: key.id, limit: 100 });
    return { success: true, usage: { ...usage, rate_limit: usage.rate_limit || key.rateLimit } };
  }
}
