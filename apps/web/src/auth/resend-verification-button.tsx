import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resendVerification } from '../api/email-links-api';

/** Mails a new verification link to the signed-in user. */
export function ResendVerificationButton() {
  const { t } = useTranslation('auth');
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'failed'>('idle');
  const send = async () => {
    setState('busy');
    try {
      await resendVerification();
      setState('sent');
    } catch {
      setState('failed');
    }
  };
  return (
    <p>
      <button type="button" className="btn btn--outline btn--sm" onClick={() => void send()} disabled={state === 'busy'}>
        {t('verify.resend')}
      </button>{' '}
      {state === 'sent' && <span role="status">{t('verify.resent')}</span>}
      {state === 'failed' && <span role="alert">{t('verify.resendFailed')}</span>}
    </p>
  );
}
