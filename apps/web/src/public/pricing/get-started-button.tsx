import type { PlanId } from '@gaia/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { requestPlan } from '../../api/plans-api';
import { queryKeys } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { serverErrorText } from '../../i18n/server-error';

/**
 * Pricing's Get Started. Signed out: to the dashboard (sign-in first). Signed in: Free applies at once;
 * Starter and Enterprise record a request the provider grants ("contact the provider", spec §9).
 */
export function GetStartedButton({ plan, primary }: { plan: PlanId; primary: boolean }) {
  const { t, i18n } = useTranslation(['plans', 'public']);
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const request = useMutation({
    mutationFn: () => requestPlan(plan),
    // A plan applied at once changes the limits the dashboard shows.
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.usageSummary }), queryClient.invalidateQueries({ queryKey: queryKeys.account })]),
  });
  const className = `btn btn--block ${primary ? 'btn--primary' : 'btn--outline'}`;
  const planName = (id: PlanId) => t(`public:pricing.plans.${id}.name`);

  if (!user) {
    return (
      <Link to="/dashboard" className={className}>
        {t('public:pricing.getStarted')}
      </Link>
    );
  }

  let message: string | null = null;
  if (request.isSuccess) {
    const a = request.data;
    if (a.status === 'requested') message = t('getStarted.requested', { plan: planName(plan) });
    else message = plan === 'free' ? t('getStarted.freeActive') : t('getStarted.alreadyActive', { plan: planName(a.plan.id) });
  }
  return (
    <>
      <button type="button" className={className} onClick={() => request.mutate()} disabled={request.isPending} aria-busy={request.isPending}>
        {request.isPending ? t('getStarted.working') : t('public:pricing.getStarted')}
      </button>
      {message && (
        <p role="status" className="plan__note" data-testid={`plan-answer-${plan}`}>
          {message} <Link to="/dashboard">{t('getStarted.openDashboard')}</Link>
        </p>
      )}
      {request.isError && (
        <p role="alert" className="plan__note">
          {t('getStarted.failed', { message: serverErrorText(request.error, t, i18n.language) })}
        </p>
      )}
    </>
  );
}
