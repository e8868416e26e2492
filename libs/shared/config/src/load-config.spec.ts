import { ConfigError, describeVariables, loadConfig } from './load-config';
import { loadAppConfig } from './app-configs';

describe('loadConfig', () => {
  it('applies defaults and coerces numbers', () => {
    const c = loadConfig('t', ['core', 'database'], {});
    expect(c.PORT).toBe(8080);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.MIGRATIONS_RUN).toBe(true);
    expect(loadConfig('t', ['core'], { PORT: '9090' }).PORT).toBe(9090);
  });

  it('fails fast listing every bad variable by name, without secret values', () => {
    let err: unknown;
    try {
      loadConfig('gateway', ['core', 'messaging', 'auth'], { PORT: 'eighty', MESSAGING_TRANSPORT: 'carrier-pigeon', SESSION_SECRET: 'short-secret' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('Invalid configuration for gateway');
    expect(msg).toContain('PORT');
    expect(msg).toContain('MESSAGING_TRANSPORT');
    expect(msg).toContain('SESSION_SECRET');
    expect(msg).not.toContain('short-secret');
  });

  it('treats empty strings as unset', () => {
    expect(loadAppConfig('billing', { PORT: '' }).PORT).toBe(8080);
  });

  it('describes every variable once, secrets flagged', () => {
    const rows = describeVariables();
    const names = rows.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(rows.find((r) => r.name === 'OPENAI_API_KEY')?.secret).toBe(true);
    expect(rows.find((r) => r.name === 'PORT')?.default).toBe('8080');
  });
});
