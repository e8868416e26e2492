// The `machine` block every benchmark result records (bench/results/*.json): what ran it and how loaded it was,
// so a number is read against its machine (timings on this shared machine are compared as ratios measured side by side).
//   const { benchMachine } = require('../machine.cjs');   result.machine = benchMachine();
'use strict';
const { cpus, loadavg, totalmem } = require('node:os');

/** The usual state of the machine the benchmarks run on. */
const SHARED_MACHINE_NOTE = 'shared dev machine (other engineers running builds and tests): compare ratios measured side by side';

/** CPU count and model, memory (GiB), Node version, 1-minute load average now, and a note (default SHARED_MACHINE_NOTE). */
function benchMachine(note = SHARED_MACHINE_NOTE) {
  const cores = cpus();
  return {
    cpus: cores.length,
    cpuModel: cores[0]?.model ?? 'unknown',
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAvg1m: Math.round(loadavg()[0] * 10) / 10,
    note,
  };
}

module.exports = { benchMachine, SHARED_MACHINE_NOTE };
