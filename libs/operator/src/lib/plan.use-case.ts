import { Inject, Injectable } from '@nestjs/common';
import { planIdSchema, type PlanDto } from '@gaia/contracts';
import { USER_REPOSITORY, type UserRepositoryPort } from '@gaia/identity/data-access';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { OPERATOR_LIST_LIMIT } from './operator.tokens';
import { OperatorUsersUseCase } from './users.use-case';

export interface PlanRequestRow {
  id: string;
  email: string;
  plan: string;
  status: string;
  requested_at: string;
  granted_at: string | null;
}

/** `gaia plan set <email> <plan>` grants a plan (billing applies it, with proration); `gaia plans requests` lists what users asked for. */
@Injectable()
export class OperatorPlanUseCase {
  constructor(
    private readonly users: OperatorUsersUseCase,
    @Inject(USER_REPOSITORY) private readonly userRecords: UserRepositoryPort,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  async set(emailOrId: string, plan: string): Promise<{ email: string; plan: PlanDto }> {
    const parsed = planIdSchema.safeParse(plan);
    if (!parsed.success) throw DomainError.invalid(`Unknown plan ${plan}: use ${planIdSchema.options.join(', ')}.`, 'unknown_plan');
    const u = await this.users.find(emailOrId);
    return { email: u.email, plan: await this.rpc.call('billing.set-plan.v1', { userId: u.id, plan: parsed.data }) };
  }

  /** Pending requests (or all with `all`), oldest first, with the requester's email. */
  async requests(all: boolean): Promise<PlanRequestRow[]> {
    const { requests } = await this.rpc.call('billing.list-plan-requests.v1', { status: all ? 'all' : 'pending', limit: OPERATOR_LIST_LIMIT });
    const emails = new Map<string, string>();
    for (const id of new Set(requests.map((r) => r.user_id))) emails.set(id, (await this.userRecords.findById(id))?.email ?? '(deleted account)');
    return requests.map((r) => ({
      id: r.id,
      email: emails.get(r.user_id) ?? '',
      plan: r.plan,
      status: r.status,
      requested_at: r.requested_at,
      granted_at: r.granted_at,
    }));
  }
}
