/**
 * Runs the OpenSearch wire double as its own process, for multi-process runs with
 * RETRIEVAL_BACKEND=opensearch on a machine without OpenSearch. Prints `OPENSEARCH_DOUBLE_READY <url>`
 * on stdout; on SIGTERM/SIGINT prints `OPENSEARCH_DOUBLE_STATS {json}` (requests by method and path
 * shape, indices and document counts) and exits.
 *   node dist/out/libs/retrieval/data-access/src/opensearch/testing/opensearch-double.main.js
 */
import { OpenSearchWireDouble } from './opensearch-wire.double';

async function main(): Promise<void> {
  const double = new OpenSearchWireDouble();
  const url = await double.start();
  process.stdout.write(`OPENSEARCH_DOUBLE_READY ${url}\n`);
  const stop = () => {
    const requests: Record<string, number> = {};
    for (const r of double.requests) {
      const shape = `${r.method} ${r.path
        .replace(/^\/gaia-pairs-[^/]+/, '/<index>')
        .replace(/\/_index_template\/.+/, '/_index_template/<name>')
        .replace(/\/_search\/pipeline\/.+/, '/_search/pipeline/<id>')}`;
      requests[shape] = (requests[shape] ?? 0) + 1;
    }
    const indices = Object.fromEntries([...double.indices.keys()].map((name) => [name, double.documents(name).length]));
    process.stdout.write(`OPENSEARCH_DOUBLE_STATS ${JSON.stringify({ requests, indices })}\n`);
    void double.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
