import { Body, Controller, Delete, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { correctionBodySchema, type CorrectionDto } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { encodeCursor, parsePage } from '../http/pagination';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';
import { FeedbackList } from './feedback-list';
import { feedbackViewer } from './feedback-viewer';
import { FS } from './feedback.schemas';

/** Corrections of an agent ("Suggest a better translation"): owner or editor, by session or their own API key. */
@ApiTags('corrections')
@ApiCookieAuth('session')
@ApiSecurity('apiKey')
@Controller('api/agents/:id/corrections')
export class CorrectionsController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Post()
  @Auth('key')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Suggest a better translation (owner or editor): stored as the agent's data. The next identical request answers `corrected`; similar requests use it as an example at once; the next learning run trains on it",
  })
  @ApiBody({ schema: FS.correctionBody })
  @ApiResponse({ status: 201, schema: FS.correction })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error, description: 'A reader of a public agent, or the shared public key' })
  @ApiResponse({ status: 404, schema: S.error, description: "'Model not found.' for anyone who cannot see the agent" })
  @ApiResponse({ status: 409, schema: S.error, description: 'The agent already holds the most corrections allowed' })
  add(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<CorrectionDto> {
    const correction = parseBody(correctionBodySchema, body, 'source and corrected are required.');
    return this.rpc.call('agents.corrections-add.v1', { agentId: id, viewer: feedbackViewer(p), correction });
  }

  @FeedbackList('Corrections of an agent, newest first (owner or editor): who, when, before and after; cursor-paginated', FS.correctionList)
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<{ corrections: CorrectionDto[]; next_cursor: string | null }> {
    const page = parsePage({ limit, cursor });
    const r = await this.rpc.call('agents.corrections-list.v1', { agentId: id, viewer: feedbackViewer(p), limit: page.limit, afterId: page.afterId });
    return { corrections: r.corrections, next_cursor: encodeCursor(r.nextAfterId) };
  }

  @Delete(':correctionId')
  @Auth('key')
  @ApiOperation({ summary: 'Undo a correction (owner or editor): the agent answers as before it' })
  @ApiResponse({ status: 200, schema: S.success })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error, description: "'Model not found.' or 'Correction not found.'" })
  undo(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('correctionId') correctionId: string): Promise<{ success: true }> {
    return this.rpc.call('agents.corrections-undo.v1', { agentId: id, viewer: feedbackViewer(p), correctionId });
  }
}
