import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** One LISTEN connection per process; wakes the relay and job runner as soon as a transaction commits. */
export class PgNotifier {
  private readonly logger = new Logger('PgNotifier');
  private client?: Client;
  private closed = false;

  constructor(
    private readonly url: string | undefined,
    private readonly channels: Record<string, () => void>,
  ) {}

  async start(): Promise<void> {
    if (!this.url) return;
    try {
      const c = new Client({ connectionString: this.url, application_name: 'gaia-notify' });
      c.on('notification', (n) => this.channels[n.channel]?.());
      c.on('error', (e) => {
        this.logger.warn(`LISTEN connection lost (${e.message}); falling back to polling`);
      });
      await c.connect();
      for (const ch of Object.keys(this.channels)) await c.query(`LISTEN ${ch}`);
      this.client = c;
      if (this.closed) await this.stop();
    } catch (e) {
      this.logger.warn(`LISTEN unavailable, polling only: ${(e as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
