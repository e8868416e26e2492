import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { teamInviteBodySchema, type RpcResponse } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { IdempotencyInterceptor } from '../http/idempotency.interceptor';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';

/** The caller's team: editors invited by email get access to every agent of the caller. */
@ApiTags('team')
@ApiCookieAuth('session')
@Controller('api/team')
export class TeamController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

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
  @ApiOperation({ summary: "Invite an editor (role Editor, status invited); the email joins sharedWithEmails of the caller's agents" })
  @ApiBody({ schema: S.teamInvite })
  @ApiResponse({ status: 201, schema: S.member })
  @ApiResponse({ status: 400, schema: S.error, description: "'Please fill in all fields.' / 'Please enter a valid email address.'" })
  @ApiResponse({ status: 409, schema: S.error })
  invite(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<RpcResponse<'agents.team-invite.v1'>> {
    const u = sessionUser(p);
    const b = parseBody(teamInviteBodySchema, body, 'Please fill in all fields.');
    return this.rpc.call('agents.team-invite.v1', { ownerId: u.id, ownerEmail: u.email.toLowerCase(), name: b.name ?? '', email: b.email ?? '' });
  }

  @Delete('members/:id')
  @Auth('session')
  @HttpCode(204)
  @ApiOperation({ summary: "Remove a member: the email leaves sharedWithEmails of the caller's agents" })
  @ApiResponse({ status: 204 })
  @ApiResponse({ status: 404, schema: S.error })
  async remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.rpc.call('agents.team-remove.v1', { ownerId: sessionUser(p).id, memberId: id });
  }
}
