import { Inject, Injectable } from '@nestjs/common';
import { USER_REPOSITORY, type UserRecord, type UserRepositoryPort } from '@gaia/identity/data-access';
import { CLOCK, newId, type Clock } from '@gaia/shared/kernel';
import { SYSTEM_ACCOUNT_EMAIL, SYSTEM_ACCOUNT_NAME } from './operator.tokens';

/** The system account that owns what the operator seeds (created once, without a password). */
@Injectable()
export class SystemAccountService {
  constructor(
    @Inject(USER_REPOSITORY) private readonly users: UserRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async ensure(): Promise<UserRecord> {
    const existing = await this.users.findByEmail(SYSTEM_ACCOUNT_EMAIL);
    if (existing) return existing;
    const created = await this.users.insert({
      id: newId(),
      email: SYSTEM_ACCOUNT_EMAIL,
      passwordHash: null,
      fullName: SYSTEM_ACCOUNT_NAME,
      displayName: SYSTEM_ACCOUNT_NAME,
      now: this.clock.now(),
    });
    return created ?? ((await this.users.findByEmail(SYSTEM_ACCOUNT_EMAIL)) as UserRecord);
  }
}
