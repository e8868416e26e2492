import { describe, expect, it } from 'vitest';
import { pickActiveSection } from './section-nav';

describe('pickActiveSection (30% visibility)', () => {
  it('picks the most visible section among those at least 30% visible', () => {
    expect(
      pickActiveSection(
        new Map([
          ['agents', 0.29],
          ['hands-on', 0.1],
        ]),
      ),
    ).toBeNull();
    expect(pickActiveSection(new Map([['agents', 0.3]]))).toBe('agents');
    expect(
      pickActiveSection(
        new Map([
          ['agents', 0.35],
          ['hands-on', 0.8],
          ['performance', 0],
        ]),
      ),
    ).toBe('hands-on');
  });
});
