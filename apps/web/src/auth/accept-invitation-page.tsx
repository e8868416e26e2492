import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { acceptInvitation } from '../api/email-links-api';
import { ApiError } from '../api/http';
import { queryKeys } from '../api/queries';
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
  const queryClient = useQueryClient();
  const acceptance = useMutation({
    mutationFn: () => acceptInvitation(token),
    // The owner's agents are now shared with this user.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.agents }),
  });
  const busy = acceptance.isPending;
  const accepted = acceptance.isSuccess;
  const err = acceptance.error;
  const error = !err
    ? null
    : err instanceof ApiError && err.status === 404
      ? t('invitation.invalid')
      : err instanceof ApiError && err.status === 403
        ? t(user?.emailVerified ? 'invitation.otherEmail' : 'invitation.verifyFirst')
        : t('invitation.failed');

  let body;
  if (!token)
    body = (
      <p className="alert alert--error" role="alert">
        {t('invitation.invalid')}
      </p>
    );
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
        <button type="button" className="btn btn--primary" onClick={() => acceptance.mutate()} disabled={busy}>
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
