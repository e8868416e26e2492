import type { AgentDto, IngestionTaskDto } from '@gaia/contracts';

/** One observation of a task's progress (percent) at a time (ms). */
export interface ProgressSample {
  at: number;
  progress: number;
}

/**
 * Seconds left, learned from the throughput measured on this task: the progress made between the first sample
 * and the latest one, over the time between them. Null until progress has moved (no guess before a measurement).
 */
export function remainingSeconds(first: ProgressSample | null, latest: ProgressSample): number | null {
  if (!first || latest.progress >= 100) return null;
  const progressed = latest.progress - first.progress;
  const seconds = (latest.at - first.at) / 1000;
  if (progressed <= 0 || seconds <= 0) return null;
  return Math.ceil(((100 - latest.progress) * seconds) / progressed);
}

export interface AgentCounts {
  documents: number;
  textBlocks: number;
  pairs: number;
}

/**
 * The agent's counts from one source: the agent's stored totals, plus what the running task has extracted so far
 * (its files read and text blocks, each a sentence pair), so the header, the Data card and the progress card agree
 * while documents process.
 */
export function agentCounts(
  agent: Pick<AgentDto, 'document_count' | 'text_blocks_extracted' | 'pair_count'>,
  task: Pick<IngestionTaskDto, 'status' | 'successful_files' | 'text_blocks_extracted'> | null,
): AgentCounts {
  const stored = { documents: agent.document_count ?? 0, textBlocks: agent.text_blocks_extracted ?? 0, pairs: agent.pair_count ?? 0 };
  if (!task || task.status !== 'PROCESSING') return stored;
  return {
    documents: stored.documents + task.successful_files,
    textBlocks: stored.textBlocks + task.text_blocks_extracted,
    pairs: stored.pairs + task.text_blocks_extracted,
  };
}

const SECONDS_PER_MINUTE = 60;

/** Time left as the UI says it: seconds under a minute ("about 7 s"), whole minutes rounded up above. */
export function timeLeft(seconds: number): { unit: 'seconds' | 'minutes'; count: number } {
  return seconds < SECONDS_PER_MINUTE
    ? { unit: 'seconds', count: Math.max(1, Math.ceil(seconds)) }
    : { unit: 'minutes', count: Math.ceil(seconds / SECONDS_PER_MINUTE) };
}
