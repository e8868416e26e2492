import { ConfigError } from '@gaia/shared/config';
import { startupFailureText } from './bootstrap-service';

describe('start-up failure text', () => {
  it('never prints a bare "undefined": a rejection without a reason says so', () => {
    expect(startupFailureText(undefined)).toBe('an unknown error (nothing was thrown with it)');
    expect(startupFailureText(null)).toBe('an unknown error (nothing was thrown with it)');
  });

  it('prints an error with its stack and its cause', () => {
    const text = startupFailureText(new Error('cannot listen', { cause: new Error('EADDRINUSE 127.0.0.1:8080') }));
    expect(text).toMatch(/^Error: cannot listen\n\s+at /);
    expect(text).toContain('caused by: Error: EADDRINUSE 127.0.0.1:8080');
  });

  it('prints a configuration error as its message, and any other value as text', () => {
    const config = new ConfigError('platform', ['PORT: must be a number']);
    expect(startupFailureText(config)).toBe(config.message);
    expect(startupFailureText('port taken')).toBe('port taken');
    expect(startupFailureText({ code: 'E42' })).toBe('{"code":"E42"}');
  });
});
