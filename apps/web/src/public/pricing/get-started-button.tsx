import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { PlanId } from '@gaia/contracts';
import { requestPlan, type PlanRequestAnswer } from '../../api/plans-api';
import { useAuth } from '../../auth/auth-context';

type State = { kind: 'idle' } | { kind: 'working' } | { kind: 'done'; answer: PlanRequestAnswer } | { kind: 'failed'; message: string };

/**
 * Pricing's Get Started. Signed out: to the dashboard (sign-in first). Signed in: Free applies at once;
 * Starter and Enterprise record a request the provider grants ("contact the provider", spec §9).
 */
export function GetStartedButton({ plan, primary }: { plan: PlanId; primary: boolean }) {
  const { t } = useTranslation(['plans', 'public']);
  const { user } = useAuth();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const className = `btn btn--block ${primary ? 'btn--primary' : 'btn--outline'}`;
  const planName = (id: PlanId) => t(`public:pricing.plans.${id}.name`);

  if (!user) {
    return (
      <Link to="/dashboard" className={className}>
        {t('public:pricing.getStarted')}
      </Link>
    );
  }

  const ask = async () => {
    setState({ kind: 'working' });
    try {
      setState({ kind: 'done', answer: await requestPlan(plan) });
    } catch (e) {
      setState({ kind: 'failed', message: (e as Error).message });
    }
  };

  let message: string | null = null;
  if (state.kind === 'done') {
    const a = state.answer;
    if (a.status === 'requested') message = t('getStarted.requested', { plan: planName(plan) });
    else message = plan === 'free' ? t('getStarted.freeActive') : t('getStarted.alreadyActive', { plan: planName(a.plan.id) });
  }
  return (
    <>
      <button type="button" className={className} onClick={() => void ask()} disabled={state.kind === 'working'} aria-busy={state.kind === 'working'}>
        {state.kind === 'working' ? t('getStarted.working') : t('public:pricing.getStarted')}
      </button>
      {message && (
        <p role="status" className="plan__note" data-testid={`plan-answer-${plan}`}>
          {message} <Link to="/dashboard">{t('getStarted.openDashboard')}</Link>
        </p>
      )}
      {state.kind === 'failed' && (
        <p role="alert" className="plan__note">
          {t('getStarted.failed', { message: state.message })}
        </p>
      )}
    </>
  );
}
