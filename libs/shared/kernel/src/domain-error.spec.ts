import { DomainError, isDomainError } from './domain-error';
import { countWords, randomToken } from './ids';

describe('DomainError', () => {
  it('carries status and code and survives a structural check', () => {
    const e = DomainError.tooMany('Daily limit reached', 60);
    expect(e.status).toBe(429);
    expect(e.details).toEqual({ retryAfterSeconds: 60 });
    expect(isDomainError(e)).toBe(true);
    expect(isDomainError({ name: 'DomainError' })).toBe(true);
    expect(isDomainError(new Error('x'))).toBe(false);
  });
});

describe('ids', () => {
  it('counts words on whitespace', () => {
    expect(countWords('  hola   mundo\nkuña ')).toBe(3);
    expect(countWords('   ')).toBe(0);
  });
  it('makes tokens with the requested entropy', () => {
    expect(Buffer.from(randomToken(16), 'base64url')).toHaveLength(16);
    expect(randomToken()).not.toBe(randomToken());
  });
});
