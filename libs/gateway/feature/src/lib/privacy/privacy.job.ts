import { Injectable } from '@nestjs/common';
import { OnJob } from '@gaia/shared/messaging';
import { DeleteAccountUseCase, SCRUB_ACCOUNT_MESSAGES_JOB } from './delete-account.use-case';

/** Jobs of account deletion (hosted by the gateway, which owns identity). */
@Injectable()
export class PrivacyJobs {
  constructor(private readonly deletion: DeleteAccountUseCase) {}

  @OnJob('gateway', SCRUB_ACCOUNT_MESSAGES_JOB)
  scrub(payload: { erasureId: string }): Promise<void> {
    return this.deletion.scrub(payload.erasureId);
  }
}
