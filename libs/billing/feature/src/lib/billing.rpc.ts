import { Injectable } from '@nestjs/common';
import type { RpcRequest, RpcResponse } from '@gaia/contracts';
import { OnRpc } from '@gaia/shared/messaging';
import { AuthorizeUseCase } from './authorize/authorize.use-case';
import { PlansUseCase } from './plans/plans.use-case';
import { UsageQueriesUseCase } from './usage-queries/usage-queries.use-case';

/** RPCs `billing.*.v1`. */
@Injectable()
export class BillingRpcHandlers {
  constructor(
    private readonly authorizer: AuthorizeUseCase,
    private readonly queries: UsageQueriesUseCase,
    private readonly plans: PlansUseCase,
  ) {}

  @OnRpc('billing.authorize.v1')
  authorize(r: RpcRequest<'billing.authorize.v1'>): Promise<RpcResponse<'billing.authorize.v1'>> {
    return this.authorizer.authorize({
      requestId: r.requestId,
      keyId: r.keyId,
      userId: r.userId,
      channel: r.channel ?? 'api',
      keyRateLimit: r.keyRateLimit,
      ip: r.ip ?? null,
    });
  }

  @OnRpc('billing.release.v1')
  release(r: RpcRequest<'billing.release.v1'>): Promise<RpcResponse<'billing.release.v1'>> {
    return this.authorizer.release(r.requestId);
  }

  @OnRpc('billing.key-usage.v1')
  keyUsage(r: RpcRequest<'billing.key-usage.v1'>): Promise<RpcResponse<'billing.key-usage.v1'>> {
    return this.queries.keyUsage(r.keyId, r.limit ?? 100);
  }

  @OnRpc('billing.usage-summary.v1')
  summary(r: RpcRequest<'billing.usage-summary.v1'>): Promise<RpcResponse<'billing.usage-summary.v1'>> {
    return this.queries.summary(r.userId, r.days ?? 30);
  }

  @OnRpc('billing.get-plan.v1')
  getPlan(r: RpcRequest<'billing.get-plan.v1'>): Promise<RpcResponse<'billing.get-plan.v1'>> {
    return this.plans.get(r.userId);
  }

  @OnRpc('billing.set-plan.v1')
  setPlan(r: RpcRequest<'billing.set-plan.v1'>): Promise<RpcResponse<'billing.set-plan.v1'>> {
    return this.plans.set(r.userId, r.plan);
  }

  @OnRpc('billing.request-plan.v1')
  requestPlan(r: RpcRequest<'billing.request-plan.v1'>): Promise<RpcResponse<'billing.request-plan.v1'>> {
    return this.plans.request(r.userId, r.plan);
  }

  @OnRpc('billing.list-plan-requests.v1')
  async planRequests(r: RpcRequest<'billing.list-plan-requests.v1'>): Promise<RpcResponse<'billing.list-plan-requests.v1'>> {
    return { requests: await this.plans.requests(r.status ?? 'pending', r.limit ?? 500) };
  }
}
