import { maxUploadRequestBytes, MULTIPART_MAX_FIELD_BYTES, MULTIPART_MAX_FIELDS, UploadBudget, type UploadAdmission } from './upload-budget';

const KB = 1024;

function admitted(a: UploadAdmission): () => void {
  if (!a.admitted) throw new Error(`refused: ${a.reason}`);
  return a.release;
}

describe('UploadBudget', () => {
  it('reserves declared bytes until released, and refuses what would pass the budget', () => {
    const budget = new UploadBudget(100 * KB, 2);
    const a = admitted(budget.tryReserve('user:ana', 60 * KB));
    expect(budget.inFlight()).toEqual({ bytes: 60 * KB, uploads: 1, callers: 1 });
    expect(budget.tryReserve('user:ben', 41 * KB)).toEqual({ admitted: false, reason: 'budget_full' });
    const b = admitted(budget.tryReserve('user:ben', 40 * KB));
    expect(budget.inFlight()).toEqual({ bytes: 100 * KB, uploads: 2, callers: 2 });
    a();
    b();
    expect(budget.inFlight()).toEqual({ bytes: 0, uploads: 0, callers: 0 });
    admitted(budget.tryReserve('user:ben', 100 * KB));
  });

  it('admits one upload larger than the whole budget when nothing else is in flight, and nothing beside it', () => {
    const budget = new UploadBudget(100 * KB, 2);
    const big = admitted(budget.tryReserve('user:ana', 500 * KB));
    expect(budget.tryReserve('user:ben', 1)).toEqual({ admitted: false, reason: 'budget_full' });
    big();
    admitted(budget.tryReserve('user:ben', 1));
  });

  it('caps the uploads in flight per caller before the budget, whatever their size', () => {
    const budget = new UploadBudget(100 * KB, 2);
    const first = admitted(budget.tryReserve('user:ana', 1 * KB));
    admitted(budget.tryReserve('user:ana', 1 * KB));
    expect(budget.tryReserve('user:ana', 1)).toEqual({ admitted: false, reason: 'caller_busy' });
    // Another caller is not held back by Ana's cap.
    admitted(budget.tryReserve('user:ben', 1 * KB));
    first();
    admitted(budget.tryReserve('user:ana', 1 * KB));
    expect(budget.tryReserve('user:ana', 1)).toEqual({ admitted: false, reason: 'caller_busy' });
  });

  it('releases a reservation exactly once, however often release is called', () => {
    const budget = new UploadBudget(100 * KB, 2);
    const a = admitted(budget.tryReserve('user:ana', 60 * KB));
    const b = admitted(budget.tryReserve('user:ana', 30 * KB));
    a();
    a();
    a();
    expect(budget.inFlight()).toEqual({ bytes: 30 * KB, uploads: 1, callers: 1 });
    // Still counted: a third of Ana's would pass the cap only if the repeated releases had freed her slots.
    admitted(budget.tryReserve('user:ana', 10 * KB));
    expect(budget.tryReserve('user:ana', 1)).toEqual({ admitted: false, reason: 'caller_busy' });
    b();
    b();
    expect(budget.inFlight()).toEqual({ bytes: 10 * KB, uploads: 1, callers: 1 });
  });

  it('bounds a request by every file and field at its maximum plus each part framing', () => {
    const max = maxUploadRequestBytes({ maxFileBytes: 25 * 1024 * KB, maxFiles: 20 });
    expect(max).toBeGreaterThan(20 * 25 * 1024 * KB + MULTIPART_MAX_FIELDS * MULTIPART_MAX_FIELD_BYTES);
    expect(max).toBeLessThan(20 * 25 * 1024 * KB + MULTIPART_MAX_FIELDS * MULTIPART_MAX_FIELD_BYTES + 2 * 1024 * KB);
  });
});
