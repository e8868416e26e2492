import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { planRequestBodySchema, type RpcResponse } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { parseBody } from '../http/validation';
import { S } from '../openapi/schemas';
import { sessionUser } from './account.controller';

@ApiTags('account')
@ApiCookieAuth('session')
@Controller('api/plans')
export class PlansController {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  @Post('request')
  @HttpCode(200)
  @Auth('session')
  @ApiOperation({ summary: "Pricing's Get Started: Free applies at once; Starter or Enterprise is recorded as a request the operator grants" })
  @ApiBody({ schema: S.planRequestBody })
  @ApiResponse({ status: 200, schema: S.planRequest })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 401, schema: S.error })
  request(@CurrentPrincipal() p: Principal, @Body() body: unknown): Promise<RpcResponse<'billing.request-plan.v1'>> {
    const { plan } = parseBody(planRequestBodySchema, body, 'Please choose a plan: free, starter or enterprise.');
    return this.rpc.call('billing.request-plan.v1', { userId: sessionUser(p).id, plan });
  }
}
