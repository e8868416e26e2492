import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { agentPatchBodySchema, deleteModelBodySchema, PAGE_SIZE_MAX, visibilityBodySchema, type RpcResponse } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import { viewerOf, type Principal } from '../auth/principal';
import { IdempotencyInterceptor } from '../http/idempotency.interceptor';
import { encodeCursor, pageOf, parsePage } from '../http/pagination';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';
import { DomainError } from '@gaia/shared/kernel';

type AgentDto = RpcResponse<'agents.update.v1'>;
type AgentView = RpcResponse<'agents.get.v1'>;
type PublicAgentList = RpcResponse<'agents.list-public.v1'>;

function signedInViewer(p: Principal) {
  const v = p.kind === 'session' ? viewerOf(p) : null;
  if (!v) throw DomainError.unauthorized('Please sign in.');
  return v;
}

/** Agents (spec collection `sota`): the agents service enforces owner / editor / reader rules per viewer. */
@ApiTags('agents')
@Controller('api')
export class AgentsController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('agents/public')
  @ApiOperation({ summary: 'Public agents, newest first (public projection: no owner uid, editors or owner notes); cursor-paginated' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_MAX } })
  @ApiQuery({ name: 'cursor', required: false, description: '`next_cursor` of the previous page' })
  @ApiResponse({ status: 200, schema: S.publicAgentList })
  @ApiResponse({ status: 400, schema: S.error, description: 'Invalid limit or cursor' })
  async listPublic(@Query('limit') limit: unknown, @Query('cursor') cursor: unknown): Promise<PublicAgentList & { next_cursor: string | null }> {
    const page = parsePage({ limit, cursor });
    const { agents } = await this.rpc.call('agents.list-public.v1', { limit: page.limit + 1, afterId: page.afterId });
    const { items, nextCursor } = pageOf(agents, page.limit, (a) => a.id);
    return { agents: items, next_cursor: nextCursor };
  }

  @Get('agents/mine')
  @Auth('session')
  @ApiCookieAuth('session')
  @ApiOperation({
    summary: "The caller's agents and those shared with the caller's email: one newest-first sequence split into owned and shared; cursor-paginated",
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_MAX } })
  @ApiQuery({ name: 'cursor', required: false, description: '`next_cursor` of the previous page' })
  @ApiResponse({ status: 200, schema: S.agentsMine })
  @ApiResponse({ status: 400, schema: S.error, description: 'Invalid limit or cursor' })
  @ApiResponse({ status: 401, schema: S.error })
  async listMine(
    @CurrentPrincipal() p: Principal,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<{ owned: AgentDto[]; shared: AgentDto[]; next_cursor: string | null }> {
    const page = parsePage({ limit, cursor });
    const r = await this.rpc.call('agents.list-mine.v1', { viewer: signedInViewer(p), limit: page.limit, afterId: page.afterId });
    return { owned: r.owned, shared: r.shared, next_cursor: encodeCursor(r.nextAfterId ?? null) };
  }

  @Get('agents/:id')
  @Auth('optional')
  @ApiOperation({
    summary:
      "One agent: public agents for anyone, private ones for the owner and editors, else 404 'Model not found.'. Owners and editors (session) get the full record, anyone else (anonymous, API key) the public projection.",
  })
  @ApiResponse({ status: 200, schema: S.agentView })
  @ApiResponse({ status: 404, schema: S.error })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<AgentView> {
    return this.rpc.call('agents.get.v1', { agentId: id, viewer: viewerOf(p), channel: p.kind === 'key' ? 'api-key' : 'session' });
  }

  @Patch('agents/:id')
  @Auth('session')
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Edit languages, description (custom_prompt), owner notes (core_memory): owner or editor' })
  @ApiBody({ schema: S.agentPatch })
  @ApiResponse({ status: 200, schema: S.agent })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<AgentDto> {
    const patch = parseBody(agentPatchBodySchema, body);
    return this.rpc.call('agents.update.v1', { agentId: id, viewer: signedInViewer(p), patch });
  }

  @Post('agents/:id/visibility')
  @Auth('session')
  @HttpCode(200)
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Make an agent public or private: owner only' })
  @ApiBody({ schema: S.visibility })
  @ApiResponse({ status: 200, schema: S.agent })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  setVisibility(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<AgentDto> {
    const b = parseBody(visibilityBodySchema, body, 'public must be true or false.');
    return this.rpc.call('agents.set-visibility.v1', { agentId: id, viewer: signedInViewer(p), public: b.public });
  }

  @Post('delete-model')
  @Auth('session')
  @HttpCode(200)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiCookieAuth('session')
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiOperation({ summary: 'Delete an agent (owner only); cascades index, memory, files and tasks' })
  @ApiBody({ schema: S.deleteModel })
  @ApiResponse({ status: 200, schema: S.success })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  async deleteModel(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<{ success: true }> {
    const b = parseBody(deleteModelBodySchema, body, 'model_id is required.');
    return this.rpc.call('agents.delete.v1', { agentId: b.model_id, viewer: signedInViewer(p) });
  }
}
