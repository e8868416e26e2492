import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/auth-context';
import { ResendVerificationButton } from '../../auth/resend-verification-button';

/** Shown across the dashboard while the signed-in user's email address is not verified. */
export function EmailVerificationNotice() {
  const { t } = useTranslation('auth');
  const { user } = useAuth();
  if (!user || user.emailVerified !== false) return null;
  return (
    // A long address must wrap on a narrow screen rather than widen the page.
    <div className="alert" role="status" data-testid="email-verification-notice" style={{ overflowWrap: 'anywhere' }}>
      <p>{t('verify.notice', { email: user.email })}</p>
      <ResendVerificationButton />
    </div>
  );
}
