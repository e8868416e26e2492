/**
 * The V8 flags of every process that serves translations: `npm start` (tools/start.mjs), the platform and
 * translation images (docker/*.Dockerfile spell them in their CMD; tools/node-flags.spec.ts checks they match)
 * and the API throughput bench (bench/scale/api-load.cjs), so the bench runs the platform as it is deployed.
 *
 * A larger young generation (issue #13): a translation's short-lived objects stay in flight across the engine's
 * phases while other requests run, so with V8's default 16 MB semi-space every scavenge copies a translation's
 * worth of survivors; 32 MB halves the scavenges per translation (0.16 → 0.085 on the 26k-pair gn agent at 8
 * connections) and took the platform's CPU per translation to 0.92× (8 connections) and 0.78× (32) of the default
 * in alternating runs (bench/scale/api-load.cjs --ab with BENCH_B_ENV), for at most 2 × 16 MB more heap.
 * 64 MB was measured and not kept: CPU per translation 0.92-0.93× at 8 connections against 32 MB, but the 50-agent
 * serving process (bench/scale/run.cjs, now started with these flags) peaked at 1024-1048 MB RSS against 908-995 MB
 * with 32 MB (3 alternating runs), over the issue #13 budget of 1 GB.
 */
'use strict';

/** MB of each of the young generation's two semi-spaces (V8's default on 64-bit: 16). */
const YOUNG_GENERATION_SEMI_SPACE_MB = 32;

const PLATFORM_NODE_FLAGS = [`--max-semi-space-size=${YOUNG_GENERATION_SEMI_SPACE_MB}`];

module.exports = { PLATFORM_NODE_FLAGS, YOUNG_GENERATION_SEMI_SPACE_MB };
