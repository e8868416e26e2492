import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { OnEvent } from '@gaia/shared/messaging';
import { EraseAccountBillingUseCase } from './erase-account.use-case';

/** The billing consumer of identity events. */
@Injectable()
export class BillingAccountEventsListener {
  constructor(private readonly erase: EraseAccountBillingUseCase) {}

  @OnEvent('billing', 'identity.account-deleted.v1')
  onAccountDeleted(p: EventMap['identity.account-deleted.v1'], em: EntityManager): Promise<void> {
    return this.erase.execute(em, p);
  }
}
