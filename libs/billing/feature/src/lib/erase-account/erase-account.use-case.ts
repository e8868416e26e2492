import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';
import { BillingErasureRepository } from '@gaia/billing/data-access';

/** A deleted account leaves billing only anonymous monthly totals (privacy promise). Idempotent (inbox transaction). */
@Injectable()
export class EraseAccountBillingUseCase {
  constructor(private readonly erasure: BillingErasureRepository) {}

  execute(em: EntityManager, e: EventMap['identity.account-deleted.v1']): Promise<void> {
    return this.erasure.erase(em, e.userId, e.keyIds);
  }
}
