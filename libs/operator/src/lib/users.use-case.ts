import { Inject, Injectable } from '@nestjs/common';
import { API_KEY_REPOSITORY, USER_REPOSITORY, type ApiKeyRepositoryPort, type UserRecord, type UserRepositoryPort } from '@gaia/identity/data-access';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { OPERATOR_LIST_LIMIT } from './operator.tokens';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

export interface UserDetail extends UserRow {
  plan: string;
  keys: { prefix: string; name: string; kind: string; rate_limit: number; created_at: string; revoked: boolean }[];
  agents: { id: string; src_lang: string; tgt_lang: string; public: boolean; pair_count: number; status: string | null }[];
}

const row = (u: UserRecord): UserRow => ({
  id: u.id,
  email: u.email,
  name: u.displayName ?? u.fullName,
  created_at: u.createdAt.toISOString(),
  last_sign_in_at: u.lastSignInAt?.toISOString() ?? null,
});

/** `gaia users list|show`: accounts with their plan, keys (metadata only) and agents. */
@Injectable()
export class OperatorUsersUseCase {
  constructor(
    @Inject(USER_REPOSITORY) private readonly users: UserRepositoryPort,
    @Inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepositoryPort,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  async list(): Promise<UserRow[]> {
    return (await this.users.list(OPERATOR_LIST_LIMIT)).map(row);
  }

  /** A user by email or id; 404 when unknown. */
  async find(emailOrId: string): Promise<UserRecord> {
    const u = emailOrId.includes('@') ? await this.users.findByEmail(emailOrId) : await this.users.findById(emailOrId);
    if (!u) throw DomainError.notFound(`No user ${emailOrId}.`, 'user_not_found');
    return u;
  }

  async show(emailOrId: string): Promise<UserDetail> {
    const u = await this.find(emailOrId);
    const [plan, keys, agents] = await Promise.all([
      this.rpc.call('billing.get-plan.v1', { userId: u.id }),
      this.keys.listByUser(u.id),
      this.rpc.call('agents.list-mine.v1', { viewer: { uid: u.id, email: u.email.toLowerCase() } }),
    ]);
    return {
      ...row(u),
      plan: plan.id,
      keys: keys.map((k) => ({
        prefix: k.prefix,
        name: k.name,
        kind: k.kind,
        rate_limit: k.rateLimit,
        created_at: k.createdAt.toISOString(),
        revoked: k.revokedAt !== null,
      })),
      agents: agents.owned.map((a) => ({
        id: a.id,
        src_lang: a.src_lang,
        tgt_lang: a.tgt_lang,
        public: a.public,
        pair_count: a.pair_count,
        status: a.processing_status,
      })),
    };
  }
}
