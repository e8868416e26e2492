import { describe, expect, it } from 'vitest';
import { formatResponseTime } from './response-time';

describe('formatResponseTime', () => {
  it('shows a 6 ms answer as "6 ms", never "0.00s"', () => {
    expect(formatResponseTime(0.006, 'en')).toBe('6 ms');
  });

  it('keeps a precision that means something at each magnitude', () => {
    expect(formatResponseTime(0.0004, 'en')).toBe('0.4 ms');
    expect(formatResponseTime(0.0064, 'en')).toBe('6.4 ms');
    expect(formatResponseTime(0.04193, 'en')).toBe('42 ms');
    expect(formatResponseTime(0.9994, 'en')).toBe('999 ms');
    expect(formatResponseTime(1.4249, 'en')).toBe('1.42 s');
    expect(formatResponseTime(12.34, 'en')).toBe('12.3 s');
  });

  it('writes numbers in the UI language', () => {
    expect(formatResponseTime(1.42, 'es')).toBe('1,42 s');
    expect(formatResponseTime(0.0064, 'es')).toBe('6,4 ms');
  });

  it('answers an empty string for a value that is not a duration', () => {
    expect(formatResponseTime(Number.NaN, 'en')).toBe('');
    expect(formatResponseTime(-1, 'en')).toBe('');
  });
});
