import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-context';
import { ResendVerificationButton } from '../../auth/resend-verification-button';

/** Shown across the dashboard while the signed-in user's email address is not verified. */
export function EmailVerificationNotice() {
  const { t } = useTranslation('auth');
  const { user } = useAuth();
  if (!user || user.emailVerified !== false) return null;
  return (
    <div className="alert" role="status" data-testid="email-verification-notice">
      <p>{t('verify.notice', { email: user.email })}</p>
      <ResendVerificationButton />
    </div>
  );
}
