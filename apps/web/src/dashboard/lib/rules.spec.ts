import { describe, expect, it } from 'vitest';
import {
  checkBuilderFile,
  curlExample,
  displayedProgress,
  estimateCost,
  formatCost,
  initials,
  invalidEditFiles,
  isOwner,
  languagePairs,
  MAX_FILE_BYTES,
  safeReturnPath,
  validateInvite,
} from './rules';

describe('progress bar of a processing task (spec §4)', () => {
  it('uses the server progress when it is ahead of the time estimate', () => {
    expect(displayedProgress(60, 10_000, 100)).toBe(60);
  });
  it('uses elapsed / estimated time when that is ahead', () => {
    expect(displayedProgress(10, 50_000, 100)).toBe(50);
  });
  it('caps the time estimate at 95%', () => {
    expect(displayedProgress(5, 1_000_000, 100)).toBe(95);
    expect(displayedProgress(0, 99_000, 100)).toBe(95);
  });
  it('lets the server go beyond the cap', () => {
    expect(displayedProgress(100, 1_000_000, 100)).toBe(100);
  });
  it('ignores the estimate without an estimated time', () => {
    expect(displayedProgress(12, 500_000, 0)).toBe(12);
    expect(displayedProgress(12, 500_000, null)).toBe(12);
  });
});

describe('stat and cost rules (spec §2, §9)', () => {
  it('counts 2 language pairs per agent', () => {
    expect(languagePairs(0)).toBe(0);
    expect(languagePairs(3)).toBe(6);
  });
  it('shows costs with 6 decimals', () => {
    expect(formatCost(0)).toBe('$0.000000');
    expect(formatCost(0.0000412)).toBe('$0.000041');
    expect(formatCost(12.5)).toBe('$12.500000');
    expect(formatCost(undefined)).toBe('$0.000000');
  });
  it('estimates $3 per million input and $15 per million output tokens', () => {
    expect(estimateCost(1_000_000, 0)).toBe(3);
    expect(estimateCost(0, 1_000_000)).toBe(15);
    expect(formatCost(estimateCost(100, 200))).toBe('$0.003300');
  });
});

describe('team invite validation (spec §5)', () => {
  it('requires name and email', () => {
    expect(validateInvite('', 'a@b.co')).toBe('Please fill in all fields.');
    expect(validateInvite('Ana', '  ')).toBe('Please fill in all fields.');
  });
  it('checks the email pattern', () => {
    expect(validateInvite('Ana', 'ana@')).toBe('Please enter a valid email address.');
    expect(validateInvite('Ana', 'ana example.org')).toBe('Please enter a valid email address.');
    expect(validateInvite('Ana', 'ana@example.org')).toBeNull();
  });
});

describe('file rules (spec §5)', () => {
  it('Builder: accepts JSON, PDF and the other parser formats; refuses others, empty and too large files', () => {
    expect(checkBuilderFile({ name: 'pairs.json', size: 10 })).toBeNull();
    expect(checkBuilderFile({ name: 'book.PDF', size: 10 })).toBeNull();
    expect(checkBuilderFile({ name: 'memory.tmx', size: 10 })).toBeNull();
    expect(checkBuilderFile({ name: 'notes.docx', size: 10 })).toEqual({ kind: 'unsupported' });
    expect(checkBuilderFile({ name: 'noext', size: 10 })).toEqual({ kind: 'unsupported' });
    expect(checkBuilderFile({ name: 'e.json', size: 0 })).toEqual({ kind: 'empty' });
    expect(checkBuilderFile({ name: 'big.json', size: MAX_FILE_BYTES + 1 })).toEqual({ kind: 'tooLarge', maxMb: 25 });
  });
  it('Edit Agent: only JSON, PDF or TXT', () => {
    expect(invalidEditFiles([{ name: 'a.json' }, { name: 'b.pdf' }, { name: 'c.TXT' }])).toEqual([]);
    expect(invalidEditFiles([{ name: 'a.json' }, { name: 'b.csv' }, { name: 'c.png' }])).toEqual(['b.csv', 'c.png']);
  });
});

describe('misc', () => {
  it('owner check compares uids', () => {
    expect(isOwner({ uid: 'u1' }, { uid: 'u1' })).toBe(true);
    expect(isOwner({ uid: 'u1' }, { uid: 'u2' })).toBe(false);
    expect(isOwner({ uid: 'u1' }, null)).toBe(false);
  });
  it('initials use at most 2 letters', () => {
    expect(initials('Ana María Quispe')).toBe('AM');
    expect(initials('ana@example.org')).toBe('AE');
    expect(initials('Bo')).toBe('BO');
    expect(initials('')).toBe('?');
  });
  it('return paths stay on this site', () => {
    expect(safeReturnPath('/dashboard/x')).toBe('/dashboard/x');
    expect(safeReturnPath('//evil.example')).toBeNull();
    expect(safeReturnPath('https://evil.example')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
  it('cURL example names the agent and its languages', () => {
    const curl = curlExample({ id: 'a1', src_lang: 'quechua', tgt_lang: 'spanish' }, 'https://gaia.test');
    expect(curl).toContain('https://gaia.test/api/translate/');
    expect(curl).toContain('"model_id":"a1"');
    expect(curl).toContain('X-API-Key: YOUR_API_KEY');
  });
});
