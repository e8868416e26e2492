import { COMMON_PASSWORD, PASSWORD_TOO_SHORT, assertAcceptablePassword } from './password-policy';

describe('password policy', () => {
  it.each(['        ', 'password', '12345678', 'abcdefgh', 'qwertyuiop', 'trustno1trustno1', 'p@ssw0rd123', 'Summer2024!'])('refuses %j as too common', (p) => {
    expect(() => assertAcceptablePassword(p, [])).toThrow(COMMON_PASSWORD);
  });

  it("refuses the user's own email or name", () => {
    expect(() => assertAcceptablePassword('ana.quispe@example.org', ['ana.quispe@example.org'])).toThrow(COMMON_PASSWORD);
    expect(() => assertAcceptablePassword('anaquispe', ['x@example.org', 'Ana Quispe'])).toThrow(COMMON_PASSWORD);
  });

  it('refuses short passwords with the length message', () => {
    expect(() => assertAcceptablePassword('short', [])).toThrow(PASSWORD_TOO_SHORT);
  });

  it.each(['correct horse battery', 'sulpayki yaku wasi', 'e2e-Password-123', 'pachamama 123'])('accepts %j', (p) => {
    expect(() => assertAcceptablePassword(p, ['ana@example.org'])).not.toThrow();
  });
});
