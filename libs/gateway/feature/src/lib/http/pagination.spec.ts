import { PAGE_SIZE_MAX } from '@gaia/contracts';
import { encodeCursor, pageOf, parsePage } from './pagination';

describe('cursor pagination', () => {
  it('defaults to the full page size and round-trips the cursor', () => {
    expect(parsePage({})).toEqual({ limit: PAGE_SIZE_MAX, afterId: null });
    expect(parsePage({ limit: '2', cursor: encodeCursor('agent-7') })).toEqual({ limit: 2, afterId: 'agent-7' });
  });

  it('refuses a limit out of range and a cursor it did not make', () => {
    for (const limit of ['0', '-1', '1.5', 'ten', String(PAGE_SIZE_MAX + 1)]) expect(() => parsePage({ limit })).toThrow(/^limit must be an integer/);
    for (const cursor of ['nope', Buffer.from('{"v":2,"after":"a"}').toString('base64url'), Buffer.from('{"v":1}').toString('base64url')])
      expect(() => parsePage({ cursor })).toThrow(/^cursor is invalid/);
  });

  it('cuts limit + 1 fetched items into a page and a next cursor (none on the last page)', () => {
    const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
    const items = ['a', 'b', 'c'].map((id) => ({ id }));
    const first = pageOf(items, 2, (x) => x.id);
    expect(ids(first.items)).toEqual(['a', 'b']);
    expect(parsePage({ cursor: first.nextCursor }).afterId).toBe('b');
    expect(pageOf(items.slice(0, 2), 2, (x) => x.id).nextCursor).toBeNull();
  });
});
