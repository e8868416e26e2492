import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { updateAccountBodySchema, type UserDto } from '@gaia/contracts';
import { AccountsService } from '@gaia/identity/feature';
import { DomainError } from '@gaia/shared/kernel';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';
import { UserViewService } from './user-view.service';

function sessionUser(p: Principal) {
  if (p.kind !== 'session') throw DomainError.unauthorized('Please sign in.');
  return p.user;
}

/** The signed-in user's profile. */
@ApiTags('account')
@ApiCookieAuth('session')
@Controller('api/account')
export class AccountController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly users: UserViewService,
  ) {}

  @Get()
  @Auth('session')
  @ApiOperation({ summary: 'Profile: email, fullName, displayName, accountType, creationTime, lastSignInTime, plan' })
  @ApiResponse({ status: 200, schema: S.user })
  @ApiResponse({ status: 401, schema: S.error })
  async get(@CurrentPrincipal() p: Principal): Promise<UserDto> {
    return this.users.toDto(sessionUser(p));
  }

  @Patch()
  @Auth('session')
  @ApiOperation({ summary: 'Edit fullName / displayName (X-CSRF-Token required)' })
  @ApiBody({ schema: S.accountPatch })
  @ApiResponse({ status: 200, schema: S.user })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 401, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error })
  async update(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<UserDto> {
    const b = parseBody(updateAccountBodySchema, body);
    return this.users.toDto(await this.accounts.updateProfile(sessionUser(p).id, b));
  }
}

export { sessionUser };
