import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../api/http';
import { serverErrorText } from '../i18n/server-error';
import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../api/queries';
import { useAuth } from './auth-context';

export const MIN_PASSWORD_LENGTH = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only same-site paths are accepted as return targets (no open redirect). */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

type Mode = 'signin' | 'signup';

/**
 * Sign in / sign up: email + password, and the identity-provider popup (OpenID Connect through the gateway).
 * Opens from the header, and by itself on `/?signin=1&next=/dashboard…` (where signed-out visitors of the
 * dashboard are sent); after signing in the user goes to `next` (default /dashboard).
 */
export function SignInDialog() {
  const { t, i18n } = useTranslation('auth');
  const { user, loading, signInDialogOpen, signInReturnTo, openSignInDialog, closeSignInDialog, signIn, signUp, signInWithPopup } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const titleId = useId();
  const [mode, setMode] = useState<Mode>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fullName, setFullName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  // The identity-provider button, when one is configured (a failed read just hides it).
  const { data: config } = useQuery({ ...publicConfigQuery(), enabled: signInDialogOpen });

  // `/?signin=1&next=…`: open the dialog (or go straight on when already signed in).
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (loading || params.get('signin') !== '1') return;
    const next = safeNext(params.get('next')) ?? '/dashboard';
    params.delete('signin');
    params.delete('next');
    const rest = params.toString();
    if (user) {
      navigate(next, { replace: true });
      return;
    }
    navigate({ pathname: location.pathname, search: rest ? `?${rest}` : '' }, { replace: true });
    openSignInDialog(next);
  }, [location.search, location.pathname, user, loading, navigate, openSignInDialog]);

  useEffect(() => {
    if (!signInDialogOpen) return;
    const opener = document.activeElement as HTMLElement | null;
    setError(null);
    setPassword('');
    emailRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeSignInDialog();
      if (e.key === 'Tab' && dialogRef.current) {
        const list = Array.from(dialogRef.current.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled])'));
        if (!list.length) return;
        if (e.shiftKey && document.activeElement === list[0]) {
          e.preventDefault();
          list[list.length - 1].focus();
        } else if (!e.shiftKey && document.activeElement === list[list.length - 1]) {
          e.preventDefault();
          list[0].focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      opener?.focus?.();
    };
  }, [signInDialogOpen, closeSignInDialog]);

  if (!signInDialogOpen) return null;

  const done = () => {
    closeSignInDialog();
    navigate(safeNext(signInReturnTo) ?? '/dashboard');
  };

  const describe = (err: unknown): string => {
    if (err instanceof ApiError) {
      if (err.status === 401) return t('invalidCredentials');
      if (err.status === 409) return t('emailTaken');
      if (err.status === 429) return err.code === 'account_locked' ? t('accountLocked') : t('tooManyAttempts');
      if (err.status === 400 && err.message !== 'Request failed')
        return serverErrorText(err, t, i18n.language, mode === 'signin' ? t('signInFailed') : t('signUpFailed'));
      if (err.status === 0 || err.status >= 500) return t('unavailable');
    }
    return mode === 'signin' ? t('signInFailed') : t('signUpFailed');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) return setError(t('fillIn'));
    if (!EMAIL.test(email.trim())) return setError(t('invalidEmail'));
    if (mode === 'signup' && password.length < MIN_PASSWORD_LENGTH) return setError(t('passwordTooShort', { min: MIN_PASSWORD_LENGTH }));
    setBusy(true);
    setError(null);
    try {
      if (mode === 'signin') await signIn(email.trim(), password);
      else await signUp(email.trim(), password, fullName.trim() || undefined);
      done();
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };

  const popup = async () => {
    setError(null);
    setBusy(true);
    try {
      const signedIn = await signInWithPopup();
      if (signedIn) done();
      else setError(t('popupFailed'));
    } finally {
      setBusy(false);
    }
  };

  const switchMode = () => {
    setMode(mode === 'signin' ? 'signup' : 'signin');
    setError(null);
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeSignInDialog()}>
      <div ref={dialogRef} className="modal sign-in" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{mode === 'signin' ? t('signInTitle') : t('signUpTitle')}</h2>
        <p className="muted sign-in__lead">{mode === 'signin' ? t('signInLead') : t('signUpLead')}</p>
        {config?.oidcEnabled && (
          <>
            <button type="button" className="btn btn--outline btn--block" onClick={popup} disabled={busy}>
              {t('continueWith', { provider: config.oidcProviderName || t('identityProvider') })}
            </button>
            <p className="divider">{t('or')}</p>
          </>
        )}
        <form onSubmit={submit} className="form" noValidate>
          {mode === 'signup' && (
            <label className="field">
              <span className="field-label">
                {t('fullName')} <span className="muted">({t('optional')})</span>
              </span>
              <input value={fullName} onChange={(e) => setFullName(e.target.value)} autoComplete="name" />
            </label>
          )}
          <label className="field">
            <span className="field-label">{t('email')}</span>
            <input ref={emailRef} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" aria-invalid={!!error} />
          </label>
          <label className="field">
            <span className="field-label">{t('password')}</span>
            <input
              type="password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
              aria-invalid={!!error}
              aria-describedby={mode === 'signup' ? `${titleId}-pw` : undefined}
            />
            {mode === 'signup' && (
              <small id={`${titleId}-pw`} className="muted">
                {t('passwordHint', { min: MIN_PASSWORD_LENGTH })}
              </small>
            )}
          </label>
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
            {busy && <span className="spinner spinner--light" aria-hidden="true" />}
            {mode === 'signin' ? t('signIn') : t('createAccount')}
          </button>
        </form>
        <button type="button" className="btn btn--link" onClick={switchMode}>
          {mode === 'signin' ? t('needAccount') : t('haveAccount')}
        </button>
        <button type="button" className="btn btn--ghost btn--block" onClick={closeSignInDialog}>
          {t('close')}
        </button>
      </div>
    </div>
  );
}
