import { resourceSizeCategory } from './quality.contracts';

describe('resource-size category (spec §9)', () => {
  it.each([
    [0, 'no-resource'],
    [1, 'tiny'],
    [9_999, 'tiny'],
    [10_000, 'very-low'],
    [99_999, 'very-low'],
    [100_000, 'low'],
    [999_999, 'low'],
    [1_000_000, 'medium'],
    [10_000_000, 'medium'],
    [10_000_001, 'high'],
  ])('%i pairs → %s', (pairs, category) => {
    expect(resourceSizeCategory(pairs)).toBe(category);
  });
});
