import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { corpusImportBodySchema, corpusPairQuerySchema, type RpcResponse } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';

/** Builder "Find public data": public corpora of the catalogue, imported into a new or an own agent. */
@ApiTags('corpora')
@ApiCookieAuth('session')
@Controller('api/corpora')
export class CorporaController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: 'Public parallel corpora for a language pair (name, version, pairs, size, license, format)' })
  @ApiQuery({ name: 'src_lang', required: true })
  @ApiQuery({ name: 'tgt_lang', required: true })
  @ApiResponse({ status: 200, schema: S.corpora })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 502, schema: S.error })
  list(@CurrentPrincipal() p: Principal, @Query() query: unknown): Promise<RpcResponse<'ingestion.list-public-corpora.v1'>> {
    sessionUser(p);
    const q = parseBody(corpusPairQuerySchema, query, 'Please fill in the source and target languages.');
    return this.rpc.call('ingestion.list-public-corpora.v1', { srcLang: q.src_lang, tgtLang: q.tgt_lang });
  }

  @Post('import')
  @HttpCode(200)
  @Auth('session')
  @ApiOperation({
    summary:
      'Imports a listed corpus through the normal ingestion path into a new agent, or into model_id (owner only); the license is recorded in the description',
  })
  @ApiBody({ schema: S.corpusImportBody })
  @ApiResponse({ status: 200, schema: S.corpusImport })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  @ApiResponse({ status: 404, schema: S.error })
  import(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<RpcResponse<'ingestion.import-public-corpus.v1'>> {
    const b = parseBody(corpusImportBodySchema, body, 'Please choose a corpus to import.');
    return this.rpc.call('ingestion.import-public-corpus.v1', {
      ownerId: sessionUser(p).id,
      srcLang: b.src_lang,
      tgtLang: b.tgt_lang,
      corpus: b.corpus,
      format: b.format,
      agentId: b.model_id,
    });
  }
}
