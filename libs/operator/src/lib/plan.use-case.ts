import { Inject, Injectable } from '@nestjs/common';
import { planIdSchema, type PlanDto } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { OperatorUsersUseCase } from './users.use-case';

/** `gaia plan set <email> <plan>`: the operator grants a plan (billing applies it, with proration). */
@Injectable()
export class OperatorPlanUseCase {
  constructor(
    private readonly users: OperatorUsersUseCase,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  async set(emailOrId: string, plan: string): Promise<{ email: string; plan: PlanDto }> {
    const parsed = planIdSchema.safeParse(plan);
    if (!parsed.success) throw DomainError.invalid(`Unknown plan ${plan}: use ${planIdSchema.options.join(', ')}.`, 'unknown_plan');
    const u = await this.users.find(emailOrId);
    return { email: u.email, plan: await this.rpc.call('billing.set-plan.v1', { userId: u.id, plan: parsed.data }) };
  }
}
