/** Builds (or finds) the cached 26k-pair benchmark agent: `npx jest -c bench/translation/jest.config.js prepare`. */
import { esGnArtifact } from './es-gn-agent';

jest.setTimeout(1_800_000);

it('prepares the es-gn benchmark agent', () => {
  const a = esGnArtifact((m) => console.log(m));
  console.log(
    `${a.pairs} pairs, ${(a.bytes.byteLength / 1e6).toFixed(1)} MB, ${a.buildMs === null ? 'from cache' : `built in ${(a.buildMs / 1000).toFixed(1)} s`}: ${a.cachePath}`,
  );
  expect(a.pairs).toBeGreaterThan(26_000);
});
