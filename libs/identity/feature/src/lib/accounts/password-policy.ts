import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { DomainError } from '@gaia/shared/kernel';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;
/**
 * zxcvbn score (0–4) a new password needs: 3 = about 10^8 guesses or more ("safely unguessable" for an online
 * attack with throttling). The estimator ships its lists of common passwords, names and words (npm packages,
 * nothing fetched at run time).
 */
export const MIN_PASSWORD_SCORE = 3;
/** Only the first characters are scored (the estimator is superlinear); longer passwords are long enough. */
const SCORED_PREFIX = 100;

export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
export const PASSWORD_TOO_LONG = 'Password is too long.';
export const COMMON_PASSWORD = 'This password is too common or too easy to guess. Use a longer passphrase, for example a few unrelated words.';

let estimator: ZxcvbnFactory | null = null;
const zxcvbn = (): ZxcvbnFactory =>
  (estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations }));

/** The password rule of sign-up: length, then strength against common passwords and the user's own email and name. */
export function assertAcceptablePassword(password: string, userInputs: readonly string[]): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw DomainError.invalid(PASSWORD_TOO_SHORT, 'weak_password');
  if (password.length > MAX_PASSWORD_LENGTH) throw DomainError.invalid(PASSWORD_TOO_LONG, 'password_too_long');
  const inputs = userInputs.flatMap((s) => [s, ...s.split(/[@.\s_-]+/u)]).filter((s) => s.length >= 3);
  if (zxcvbn().check(password.slice(0, SCORED_PREFIX), inputs).score < MIN_PASSWORD_SCORE) throw DomainError.invalid(COMMON_PASSWORD, 'common_password');
}
