import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { METRICS, type GaiaMetrics } from '@gaia/shared/observability';

/** Prometheus scrape endpoint of every Gaia process (the Helm chart annotates pods for it). */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(@Inject(METRICS) private readonly metrics: GaiaMetrics) {}

  @Get('metrics')
  async scrape(@Res() res: Response): Promise<void> {
    const { contentType, body } = await this.metrics.render();
    res.status(200).setHeader('Content-Type', contentType);
    res.end(body);
  }
}
