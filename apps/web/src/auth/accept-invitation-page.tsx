import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { acceptInvitation } from '../api/email-links-api';
import { ApiError } from '../api/http';
import { useDocumentTitle } from '../layout/use-document-title';
import { useAuth } from './auth-context';
import { ResendVerificationButton } from './resend-verification-button';

/**
 * /invitations/accept?token=…: the link of a team invitation. Rights start only when the signed-in user, whose
 * email is the invited one and verified, accepts here.
 */
export function AcceptInvitationPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('invitation.title'));
  const [params] = useSearchParams();
  const location = useLocation();
  const token = params.get('token') ?? '';
  const { user, loading, openSignInDialog } = useAuth();
  const [busy, setBusy] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      await acceptInvitation(token);
      setAccepted(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setError(t('invitation.invalid'));
      else if (err instanceof ApiError && err.status === 403 && user?.emailVerified) setError(t('invitation.otherEmail'));
      else if (err instanceof ApiError && err.status === 403) setError(t('invitation.verifyFirst'));
      else setError(t('invitation.failed'));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (!token) body = <p className="alert alert--error" role="alert">{t('invitation.invalid')}</p>;
  else if (loading) body = <p role="status">{t('invitation.checking')}</p>;
  else if (!user)
    body = (
      <>
        <p className="lead">{t('invitation.signInFirst')}</p>
        <button type="button" className="btn btn--primary" onClick={() => openSignInDialog(`${location.pathname}${location.search}`)}>
          {t('signIn')}
        </button>
      </>
    );
  else if (accepted)
    body = (
      <>
        <p className="alert alert--success" role="status" data-testid="invitation-result">
          {t('invitation.accepted')}
        </p>
        <Link to="/dashboard" className="btn btn--primary">
          {t('verify.toDashboard')}
        </Link>
      </>
    );
  else if (!user.emailVerified)
    body = (
      <>
        <p className="lead">{t('invitation.verifyFirst')}</p>
        <ResendVerificationButton />
      </>
    );
  else
    body = (
      <>
        <p className="lead">{t('invitation.lead', { email: user.email })}</p>
        <button type="button" className="btn btn--primary" onClick={() => void accept()} disabled={busy}>
          {t('invitation.accept')}
        </button>
      </>
    );

  return (
    <div className="container page page-narrow">
      <h1>{t('invitation.title')}</h1>
      {body}
      {error && (
        <p className="alert alert--error" role="alert" data-testid="invitation-result">
          {error}
        </p>
      )}
    </div>
  );
}
