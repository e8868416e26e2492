import { Body, Controller, Delete, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { glossaryImportBodySchema, glossaryTermBodySchema, type GlossaryTermDto, type RpcResponse } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { FeedbackList } from '../corrections/feedback-list';
import { feedbackViewer } from '../corrections/feedback-viewer';
import { FS } from '../corrections/feedback.schemas';
import { encodeCursor, parsePage } from '../http/pagination';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';

const TERM_REQUIRED = 'term and translation are required.';

/** The glossary of an agent (term → required translation): owner or editor, by session or their own API key. */
@ApiTags('glossary')
@ApiCookieAuth('session')
@ApiSecurity('apiKey')
@Controller('api/agents/:id/glossary')
export class GlossaryController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @FeedbackList('Glossary terms of an agent, by term (owner or editor); cursor-paginated', FS.termList)
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
  ): Promise<{ terms: GlossaryTermDto[]; next_cursor: string | null }> {
    const page = parsePage({ limit, cursor });
    const r = await this.rpc.call('agents.glossary-list.v1', { agentId: id, viewer: feedbackViewer(p), limit: page.limit, afterId: page.afterId });
    return { terms: r.terms, next_cursor: encodeCursor(r.nextAfterId) };
  }

  @Post()
  @Auth('key')
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a term: both engines must translate it as given (the built-in engine forces it, the LLM engine is told and checked)' })
  @ApiBody({ schema: FS.termBody })
  @ApiResponse({ status: 201, schema: FS.term })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  @ApiResponse({ status: 409, schema: S.error, description: "'This term is already in the glossary.'" })
  add(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<GlossaryTermDto> {
    const term = parseBody(glossaryTermBodySchema, body, TERM_REQUIRED);
    return this.rpc.call('agents.glossary-add.v1', { agentId: id, viewer: feedbackViewer(p), term });
  }

  @Post('import')
  @Auth('key')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Import terms from a CSV or TSV (term, translation[, note[, case_sensitive]], optional header row) or TBX file (XML; DOCTYPE and entities refused) sent as text in `glossary_file` (at most 90,000 characters); existing terms are updated. All or nothing',
  })
  @ApiBody({ schema: FS.importBody })
  @ApiResponse({ status: 200, schema: FS.importResult })
  @ApiResponse({ status: 400, schema: S.error, description: 'The line or entry at fault, or why the file was refused' })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  importFile(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<RpcResponse<'agents.glossary-import.v1'>> {
    const b = parseBody(glossaryImportBodySchema, body, 'format (csv, tsv or tbx) and glossary_file are required.');
    return this.rpc.call('agents.glossary-import.v1', { agentId: id, viewer: feedbackViewer(p), format: b.format, content: b.glossary_file });
  }

  @Put(':termId')
  @Auth('key')
  @ApiOperation({ summary: 'Replace a term' })
  @ApiBody({ schema: FS.termBody })
  @ApiResponse({ status: 200, schema: FS.term })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error, description: "'Model not found.' or 'Term not found.'" })
  @ApiResponse({ status: 409, schema: S.error })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('termId') termId: string, @Body() body: unknown): Promise<GlossaryTermDto> {
    const term = parseBody(glossaryTermBodySchema, body, TERM_REQUIRED);
    return this.rpc.call('agents.glossary-update.v1', { agentId: id, viewer: feedbackViewer(p), termId, term });
  }

  @Delete(':termId')
  @Auth('key')
  @ApiOperation({ summary: 'Remove a term' })
  @ApiResponse({ status: 200, schema: S.success })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  remove(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Param('termId') termId: string): Promise<{ success: true }> {
    return this.rpc.call('agents.glossary-delete.v1', { agentId: id, viewer: feedbackViewer(p), termId });
  }
}
