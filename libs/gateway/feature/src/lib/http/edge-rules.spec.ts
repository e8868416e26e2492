import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { DomainError } from '@gaia/shared/kernel';
import { sanitizeFilename } from '../documents/uploads.use-case';
import { errorResponse } from './domain-error.filter';

describe('errorResponse', () => {
  it('maps DomainError to its status and message, with Retry-After for 429', () => {
    expect(errorResponse(DomainError.notFound('Model not found.'))).toEqual({ status: 404, body: { error: 'Model not found.' }, retryAfter: undefined });
    expect(errorResponse(DomainError.tooMany('Slow down', 12.2))).toEqual({ status: 429, body: { error: 'Slow down' }, retryAfter: 13 });
  });
  it('hides internal errors', () => {
    expect(errorResponse(new Error('password=hunter2 leaked'))).toEqual({ status: 500, body: { error: 'Internal server error' } });
    expect(errorResponse(new DomainError('internal', 'db exploded', 500)).body).toEqual({ error: 'Internal server error' });
    expect(errorResponse(new DomainError('service_unavailable', 'The agents service is unavailable right now. Please try again.', 503)).body.error).toMatch(
      /unavailable/,
    );
  });
  it('keeps upload limit messages readable', () => {
    expect(errorResponse(new PayloadTooLargeException('File too large'))).toEqual({ status: 413, body: { error: 'File too large.' } });
    expect(errorResponse(new BadRequestException('Too many files'))).toEqual({ status: 413, body: { error: 'Too many files.' } });
  });
});

describe('sanitizeFilename', () => {
  it('keeps the base name with safe characters', () => {
    expect(sanitizeFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFilename('C:\\Users\\ana\\pares uno.json')).toBe('pares_uno.json');
    expect(sanitizeFilename('ñandú guaraní.pdf')).toBe('ñandú_guaraní.pdf');
    expect(sanitizeFilename('...hidden')).toBe('hidden');
    expect(sanitizeFilename('')).toBe('file');
    expect(sanitizeFilename('a'.repeat(500)).length).toBe(120);
  });
});
