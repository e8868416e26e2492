import { Controller, Get, Inject } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import type { RpcResponse } from '@gaia/contracts';
import { sessionUser } from '../account/account.controller';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { S } from '../openapi/schemas';

@ApiTags('usage')
@ApiCookieAuth('session')
@Controller('api/usage')
export class UsageController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Get('summary')
  @Auth('session')
  @ApiOperation({ summary: "The caller's usage: totals, plan, daily series (30 days) and current billing month" })
  @ApiResponse({ status: 200, schema: S.usageSummary })
  @ApiResponse({ status: 401, schema: S.error })
  summary(@CurrentPrincipal() p: Principal): Promise<RpcResponse<'billing.usage-summary.v1'>> {
    return this.rpc.call('billing.usage-summary.v1', { userId: sessionUser(p).id, days: 30 });
  }
}
