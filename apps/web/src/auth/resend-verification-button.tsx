import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { resendVerification } from '../api/email-links-api';

/** Mails a new verification link to the signed-in user. */
export function ResendVerificationButton() {
  const { t } = useTranslation('auth');
  const resend = useMutation({ mutationFn: resendVerification });
  return (
    <p>
      <button type="button" className="btn btn--outline btn--sm" onClick={() => resend.mutate()} disabled={resend.isPending}>
        {t('verify.resend')}
      </button>{' '}
      {resend.isSuccess && <span role="status">{t('verify.resent')}</span>}
      {resend.isError && <span role="alert">{t('verify.resendFailed')}</span>}
    </p>
  );
}
