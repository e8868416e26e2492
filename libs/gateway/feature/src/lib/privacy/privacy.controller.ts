import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { deleteAccountBodySchema } from '@gaia/contracts';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { DomainError } from '@gaia/shared/kernel';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import { clearSessionCookies, isSecureRequest } from '../auth/cookies';
import type { Principal } from '../auth/principal';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';
import { DeleteAccountUseCase } from './delete-account.use-case';
import { ExportAccountUseCase } from './export-account.use-case';

/** Privacy promises of the Privacy page: export everything the account owns, delete the account and everything it owns. */
@ApiTags('account')
@ApiCookieAuth('session')
@Controller('api/account')
export class PrivacyController {
  constructor(
    private readonly deletion: DeleteAccountUseCase,
    private readonly exporter: ExportAccountUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('export')
  @Auth('key')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Everything the account owns as one zip: profile, agents (settings and data), API keys (metadata) with usage, usage, team. Session or X-API-Key',
  })
  @ApiProduces('application/zip')
  @ApiResponse({ status: 200, description: 'application/zip' })
  @ApiResponse({ status: 401, schema: S.error })
  async export(@CurrentPrincipal() p: Principal, @Res() res: Response): Promise<void> {
    const user = p.kind === 'session' || p.kind === 'key' ? p.user : null;
    if (!user) throw DomainError.unauthorized('Please sign in.');
    const bytes = await this.exporter.build(user);
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Length', String(bytes.byteLength));
    res.setHeader('Content-Disposition', `attachment; filename="gaia-export-${user.id}.zip"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  @Post('delete')
  @HttpCode(200)
  @Auth('session')
  @ApiOperation({
    summary:
      'Deletes the account and everything it owns (agents, pairs, artifacts, uploads, keys, sessions, team rows); billing keeps anonymous totals. Body: the account email, to confirm',
  })
  @ApiBody({ schema: S.accountDelete })
  @ApiResponse({ status: 200, schema: S.success })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 401, schema: S.error })
  async remove(
    @CurrentPrincipal() p: Principal,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ success: true }> {
    const { email } = parseBody(deleteAccountBodySchema, body, 'Type your email address to confirm the deletion.');
    const out = await this.deletion.execute(sessionUser(p), email);
    clearSessionCookies(res, isSecureRequest(req, this.config.PUBLIC_BASE_URL));
    return out;
  }
}
