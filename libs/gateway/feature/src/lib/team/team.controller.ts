import { Body, Controller, Delete, Get, HttpCode, Inject, Logger, Param, Post, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { linkTokenBodySchema, teamInviteBodySchema, type RpcResponse } from '@gaia/contracts';
import { EmailLinksService, linkTokenHash, newLinkToken } from '@gaia/identity/feature';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { IdempotencyInterceptor } from '../http/idempotency.interceptor';
import { publicBaseUrl } from '../http/public-base-url';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';

export const VERIFY_EMAIL_FIRST = 'Please confirm your email address before accepting an invitation. Check your inbox for the verification link.';

/** The caller's team: editors invited by email, with rights once they accept the mailed link. */
@ApiTags('team')
@ApiCookieAuth('session')
@Controller('api/team')
export class TeamController {
  private readonly logger = new Logger('Team');

  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    private readonly links: EmailLinksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: "The caller's team members" })
  @ApiResponse({ status: 200, schema: S.teamList })
  @ApiResponse({ status: 401, schema: S.error })
  list(@CurrentPrincipal() p: Principal): Promise<RpcResponse<'agents.team-list.v1'>> {
    return this.rpc.call('agents.team-list.v1', { ownerId: sessionUser(p).id });
  }

  @Post('members')
  @Auth('session')
  @HttpCode(201)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiOperation({
    summary:
      "Invite an editor (role Editor, status invited): a single-use link is mailed to the email. Nothing is shared until the invitee, signed in with that verified email, accepts; then the email joins sharedWithEmails of the caller's agents",
  })
  @ApiBody({ schema: S.teamInvite })
  @ApiResponse({ status: 201, schema: S.member })
  @ApiResponse({ status: 400, schema: S.error, description: "'Please fill in all fields.' / 'Please enter a valid email address.'" })
  @ApiResponse({ status: 409, schema: S.error })
  async invite(@CurrentPrincipal() p: Principal, @Body() body: unknown, @Req() req: Request): Promise<RpcResponse<'agents.team-invite.v1'>> {
    const u = sessionUser(p);
    const b = parseBody(teamInviteBodySchema, body, 'Please fill in all fields.');
    const { token, tokenHash } = newLinkToken();
    const member = await this.rpc.call('agents.team-invite.v1', {
      ownerId: u.id,
      ownerEmail: u.email.toLowerCase(),
      name: b.name ?? '',
      email: b.email ?? '',
      tokenHash,
    });
    try {
      await this.links.sendInvitation(member.email, u.displayName ?? u.fullName ?? u.email, token, publicBaseUrl(req, this.config));
    } catch (e) {
      // The member stays invited; removing and inviting again sends a new link.
      this.logger.warn(`invitation mail not sent: ${(e as Error).message}`);
    }
    return member;
  }

  @Post('invitations/accept')
  @Auth('session')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation with the token of the mailed link: the signed-in user must own the invited email and have verified it' })
  @ApiBody({ schema: S.linkToken })
  @ApiResponse({ status: 200, schema: S.member })
  @ApiResponse({ status: 403, schema: S.error, description: 'Email not verified yet, or the invitation was sent to another email' })
  @ApiResponse({ status: 404, schema: S.error, description: 'This invitation link is invalid, expired or already used.' })
  accept(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<RpcResponse<'agents.team-accept.v1'>> {
    const u = sessionUser(p);
    const tokenHash = linkTokenHash(parseBody(linkTokenBodySchema, body, 'token is required.').token);
    if (!tokenHash) throw DomainError.invalid('token is required.');
    if (!u.emailVerifiedAt) throw DomainError.forbidden(VERIFY_EMAIL_FIRST, 'email_not_verified');
    return this.rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: u.id, email: u.email.toLowerCase() } });
  }

  @Delete('members/:id')
  @Auth('session')
  @HttpCode(204)
  @ApiOperation({ summary: "Remove a member (invited or active): the email leaves sharedWithEmails of the caller's agents" })
  @ApiResponse({ status: 204 })
  @ApiResponse({ status: 404, schema: S.error })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.rpc.call('agents.team-remove.v1', { ownerId: sessionUser(p).id, memberId: id });
  }
}
