import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { verifyEmail } from '../api/email-links-api';
import { useDocumentTitle } from '../layout/use-document-title';
import { useAuth } from './auth-context';

/** /verify-email?token=…: the link of the verification mail. Uses the token once (no double submit in strict mode). */
export function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('verify.title'));
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { refresh } = useAuth();
  const verification = useMutation({ mutationFn: verifyEmail, onSuccess: () => refresh() });
  const { mutate } = verification;
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutate(token);
  }, [token, mutate]);

  const state =
    !token || verification.isError
      ? { kind: 'failed' as const }
      : verification.isSuccess
        ? { kind: 'done' as const, email: verification.data.email }
        : { kind: 'working' as const };

  return (
    <div className="container page page-narrow">
      <h1>{t('verify.title')}</h1>
      {state.kind === 'working' && (
        <p className="lead" role="status">
          {t('verify.working')}
        </p>
      )}
      {state.kind === 'done' && (
        <>
          <p className="alert alert--success" role="status" data-testid="verify-email-result">
            {t('verify.done', { email: state.email })}
          </p>
          <Link to="/dashboard" className="btn btn--primary">
            {t('verify.toDashboard')}
          </Link>
        </>
      )}
      {state.kind === 'failed' && (
        <>
          <p className="alert alert--error" role="alert" data-testid="verify-email-result">
            {t('verify.failed')}
          </p>
          <Link to="/dashboard" className="btn btn--outline">
            {t('verify.toDashboard')}
          </Link>
        </>
      )}
    </div>
  );
}
