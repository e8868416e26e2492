import { createServer, type Server } from 'node:http';
import type { GaiaMetrics } from '@gaia/shared/observability';

export const METRICS_PATH = '/metrics';

/**
 * Prometheus scrape endpoint on its own port (METRICS_PORT), never on the public HTTP port: an Ingress that
 * routes `/` to the gateway cannot expose the process's internals (routes, cache, queues) to strangers.
 */
export async function serveMetrics(metrics: GaiaMetrics, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e instanceof Error ? e.message : 'metrics failed'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
