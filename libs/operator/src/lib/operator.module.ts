import { Module } from '@nestjs/common';
import { API_KEY_REPOSITORY, PostgresApiKeyRepository, PostgresUserRepository, USER_REPOSITORY } from '@gaia/identity/data-access';
import { OperatorAgentsUseCase } from './agents.use-case';
import { OperatorCorporaUseCase } from './corpora.use-case';
import { OperatorKeysUseCase } from './keys.use-case';
import { SEED_SOURCE } from './operator.tokens';
import { OperatorOutboxUseCase } from './outbox.use-case';
import { OperatorPlanUseCase } from './plan.use-case';
import { LocalFolderSeedSource } from './seed/local-folder.adapter';
import { SeedUseCase } from './seed/seed.use-case';
import { SystemAccountService } from './system-account.service';
import { OperatorUsersUseCase } from './users.use-case';

/**
 * The operator's use cases (`npx gaia …`). Runs inside a process built like the platform (CoreModule +
 * every feature), and acts through the owning services' RPCs wherever one exists.
 */
@Module({
  providers: [
    { provide: USER_REPOSITORY, useClass: PostgresUserRepository },
    { provide: API_KEY_REPOSITORY, useClass: PostgresApiKeyRepository },
    SystemAccountService,
    { provide: SEED_SOURCE, useClass: LocalFolderSeedSource },
    OperatorUsersUseCase,
    OperatorPlanUseCase,
    OperatorKeysUseCase,
    OperatorAgentsUseCase,
    OperatorOutboxUseCase,
    SeedUseCase,
    OperatorCorporaUseCase,
  ],
  exports: [OperatorUsersUseCase, OperatorPlanUseCase, OperatorKeysUseCase, OperatorAgentsUseCase, OperatorOutboxUseCase, SeedUseCase, OperatorCorporaUseCase],
})
export class OperatorModule {}
