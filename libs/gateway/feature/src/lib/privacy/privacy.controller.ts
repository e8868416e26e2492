import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import { clearSessionCookies, isSecureRequest } from '../auth/cookies';
import type { Principal } from '../auth/principal';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';
import { DeleteAccountUseCase } from './delete-account.use-case';

const EMAIL_MAX = 320;
const deleteBodySchema = z.object({ email: z.string().max(EMAIL_MAX) });

/** Privacy promises of the Privacy page: delete the account and everything it owns. */
@ApiTags('account')
@ApiCookieAuth('session')
@Controller('api/account')
export class PrivacyController {
  constructor(
    private readonly deletion: DeleteAccountUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('delete')
  @HttpCode(200)
  @Auth('session')
  @ApiOperation({ summary: 'Deletes the account and everything it owns (agents, pairs, artifacts, uploads, keys, sessions, team rows); billing keeps anonymous totals. Body: the account email, to confirm' })
  @ApiBody({ schema: S.accountDelete })
  @ApiResponse({ status: 200, schema: S.success })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 401, schema: S.error })
  async remove(@CurrentPrincipal() p: Principal, @Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ success: true }> {
    const { email } = parseBody(deleteBodySchema, body, 'Type your email address to confirm the deletion.');
    const out = await this.deletion.execute(sessionUser(p), email);
    clearSessionCookies(res, isSecureRequest(req, this.config.PUBLIC_BASE_URL));
    return out;
  }
}
