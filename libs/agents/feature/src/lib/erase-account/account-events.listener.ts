import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { EraseAccountAgentsUseCase } from './erase-account.use-case';

/** The agents consumer of identity events. */
@Injectable()
export class AccountEventsListener {
  constructor(private readonly erase: EraseAccountAgentsUseCase) {}

  @OnEvent('agents', 'identity.account-deleted.v1')
  onAccountDeleted(p: EventMap['identity.account-deleted.v1'], em: EntityManager): Promise<void> {
    return this.erase.execute(em, p);
  }
}
