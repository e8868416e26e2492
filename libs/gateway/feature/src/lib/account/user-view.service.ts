import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UserDto } from '@gaia/contracts';
import type { UserRecord } from '@gaia/identity/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';

/** Maps a user to UserDto (plan name from the billing service; 'Free' when it cannot answer). */
@Injectable()
export class UserViewService {
  private readonly logger = new Logger('UserView');
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async toDto(u: UserRecord): Promise<UserDto> {
    let plan = 'Free';
    try {
      plan = (await this.rpc.call('billing.get-plan.v1', { userId: u.id }, { timeoutMs: 5000 })).name;
    } catch (e) {
      this.logger.warn(`plan of ${u.id} unavailable: ${(e as Error).message}`);
    }
    return {
      uid: u.id,
      email: u.email,
      fullName: u.fullName,
      displayName: u.displayName,
      accountType: 'Standard',
      creationTime: u.createdAt.toISOString(),
      lastSignInTime: u.lastSignInAt ? u.lastSignInAt.toISOString() : null,
      plan,
      emailVerified: u.emailVerifiedAt !== null,
    };
  }
}
