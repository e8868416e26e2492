/** The `machine` block of a benchmark result (bench/machine.cjs). */
export interface BenchMachine {
  cpus: number;
  cpuModel: string;
  memGiB: number;
  node: string;
  loadAvg1m: number;
  note: string;
}
export declare const SHARED_MACHINE_NOTE: string;
export declare function benchMachine(note?: string): BenchMachine;
