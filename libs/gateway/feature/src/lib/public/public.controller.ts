import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { PublicConfigDto } from '@gaia/contracts';
import { ApiKeysService, OidcService } from '@gaia/identity/feature';
import { S } from '../openapi/schemas';

@ApiTags('public')
@Controller('api/public')
export class PublicController {
  constructor(
    private readonly keys: ApiKeysService,
    private readonly oidc: OidcService,
  ) {}

  @Get('config')
  @ApiOperation({ summary: "The public translator's low-privilege key (public agents only, per-IP limits) and sign-in options" })
  @ApiResponse({ status: 200, schema: S.publicConfig })
  async config(): Promise<PublicConfigDto> {
    return { publicApiKey: await this.keys.ensurePublicKey(), oidcEnabled: this.oidc.enabled, oidcProviderName: this.oidc.providerName };
  }
}
