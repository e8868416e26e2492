import { describe, expect, it } from 'vitest';
import { agentCounts, remainingSeconds, timeLeft } from './processing-estimate';

describe('remainingSeconds', () => {
  it('learns the time left from the measured throughput: 30 points in 3 s leave 70 points, 7 s', () => {
    expect(remainingSeconds({ at: 10_000, progress: 5 }, { at: 13_000, progress: 35 })).toBe(7);
  });

  it('says a 3-second job takes seconds, not "about 1 minute"', () => {
    expect(remainingSeconds({ at: 0, progress: 5 }, { at: 1_500, progress: 50 })).toBe(2);
  });

  it('makes no guess before progress has moved', () => {
    expect(remainingSeconds(null, { at: 1_000, progress: 5 })).toBeNull();
    expect(remainingSeconds({ at: 0, progress: 5 }, { at: 5_000, progress: 5 })).toBeNull();
    expect(remainingSeconds({ at: 0, progress: 5 }, { at: 0, progress: 10 })).toBeNull();
  });

  it('has nothing left at 100%', () => {
    expect(remainingSeconds({ at: 0, progress: 5 }, { at: 1_000, progress: 100 })).toBeNull();
  });
});

describe('agentCounts', () => {
  const stored = { document_count: 1, text_blocks_extracted: 6, pair_count: 6 };

  it('adds what the running task extracted so far to the stored totals', () => {
    expect(agentCounts(stored, { status: 'PROCESSING', successful_files: 1, text_blocks_extracted: 7743 })).toEqual({
      documents: 2,
      textBlocks: 7749,
      pairs: 7749,
    });
  });

  it('shows the stored totals alone once the task ended (the server counted them)', () => {
    expect(agentCounts(stored, { status: 'COMPLETED', successful_files: 1, text_blocks_extracted: 19 })).toEqual({ documents: 1, textBlocks: 6, pairs: 6 });
    expect(agentCounts(stored, null)).toEqual({ documents: 1, textBlocks: 6, pairs: 6 });
  });

  it('counts a first build from zero', () => {
    expect(
      agentCounts({ document_count: 0, text_blocks_extracted: 0, pair_count: 0 }, { status: 'PROCESSING', successful_files: 0, text_blocks_extracted: 0 }),
    ).toEqual({ documents: 0, textBlocks: 0, pairs: 0 });
  });
});

describe('timeLeft', () => {
  it('says seconds under a minute and whole minutes (rounded up) above', () => {
    expect(timeLeft(7)).toEqual({ unit: 'seconds', count: 7 });
    expect(timeLeft(0.2)).toEqual({ unit: 'seconds', count: 1 });
    expect(timeLeft(60)).toEqual({ unit: 'minutes', count: 1 });
    expect(timeLeft(61)).toEqual({ unit: 'minutes', count: 2 });
  });
});
