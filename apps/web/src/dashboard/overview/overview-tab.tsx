import type { AgentDto, AgentQualitySummary } from '@gaia/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usageSummaryQuery } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { BillingMonth } from '../components/billing-month';
import { PlanLimits } from '../components/plan-limits';
import { useDashboardData } from '../lib/dashboard-data';
import { formatDate, formatNumber, formatPair } from '../lib/format';
import { formatCost, languagePairs } from '../lib/rules';
import { tabHref } from '../shell/tabs';
import { UsageChart } from './usage-chart';

export function StatCard({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="dash-stat" data-testid={testId}>
      <span className="dash-stat__label">{label}</span>
      <span className="dash-stat__value">{value}</span>
    </div>
  );
}

/** Scores are shown to this many decimals (as on the owner page's quality card). */
const SCORE_DECIMALS = 3;

/** The latest quality report in a line: chrF, specificity margin and size category (only the category when too small to measure). */
export function AgentQuality({ quality }: { quality: AgentQualitySummary }) {
  const { t, i18n } = useTranslation('dashboard');
  const score = (v: number | null) => (v === null ? '—' : formatNumber(Number(v.toFixed(SCORE_DECIMALS)), i18n.language));
  const category = t(`agentPage.category.${quality.category}`);
  return (
    <span className="agent-row__quality muted small" data-testid="agent-quality" title={t('overview.qualityHint')}>
      {quality.measured ? t('overview.quality', { chrf: score(quality.chrf), margin: score(quality.margin), category }) : category}
    </span>
  );
}

export function AgentRow({ agent, shared }: { agent: AgentDto; shared: boolean }) {
  const { t, i18n } = useTranslation('dashboard');
  return (
    <li>
      <Link to={`/dashboard/${encodeURIComponent(agent.id)}`} className="agent-row" data-testid="agent-row">
        <span className="agent-row__pair">{formatPair(agent)}</span>
        <span className="agent-row__meta">
          <span className={`pill ${agent.public ? 'pill--public' : 'pill--private'}`}>{agent.public ? t('agent.public') : t('agent.private')}</span>
          {shared && <span className="pill pill--shared">{t('overview.sharedWithYou')}</span>}
          {agent.processing_task_id && agent.processing_status !== 'COMPLETED' && agent.processing_status !== 'FAILED' && (
            <span className="pill pill--busy">{t('overview.processing')}</span>
          )}
          {agent.processing_status === 'FAILED' && <span className="pill pill--failed">{t('overview.failed')}</span>}
          {agent.quality_summary && <AgentQuality quality={agent.quality_summary} />}
          <span className="agent-row__date">{t('overview.created', { date: formatDate(agent.created_at, i18n.language) })}</span>
        </span>
      </Link>
    </li>
  );
}

export function OverviewTab() {
  const { t, i18n } = useTranslation('dashboard');
  const { user } = useAuth();
  const { owned, shared, all, loading } = useDashboardData();
  const { data: usage = null } = useQuery(usageSummaryQuery());

  const name = user?.displayName?.trim() || user?.fullName?.trim() || user?.email || t('shell.user');
  const ownedIds = new Set(owned.map((a) => a.id));

  return (
    <div className="dash-page">
      <header className="dash-page__header">
        <h1 tabIndex={-1}>{t('overview.welcome', { name })}</h1>
        <p className="muted">{t('overview.subtitle')}</p>
      </header>

      <div className="dash-stats">
        <StatCard testId="stat-agents" label={t('overview.activeAgents')} value={formatNumber(all.length, i18n.language)} />
        <StatCard testId="stat-pairs" label={t('overview.languagePairs')} value={formatNumber(languagePairs(all.length), i18n.language)} />
        <StatCard testId="stat-requests" label={t('overview.apiRequests')} value={formatNumber(usage?.total_requests ?? 0, i18n.language)} />
        <StatCard testId="stat-cost" label={t('overview.totalCost')} value={formatCost(usage?.total_cost ?? 0)} />
      </div>

      <section className="dash-shortcuts" aria-label={t('overview.shortcuts')}>
        <Link to={tabHref('builder')} className="shortcut">
          <strong>{t('overview.createAgent')}</strong>
          <span className="muted">{t('overview.createAgentText')}</span>
        </Link>
        <Link to={tabHref('api')} className="shortcut">
          <strong>{t('overview.viewApi')}</strong>
          <span className="muted">{t('overview.viewApiText')}</span>
        </Link>
      </section>

      <section className="card" aria-labelledby="agents-heading">
        <h2 id="agents-heading" className="card__title">
          {t('overview.agentsTitle')}
        </h2>
        {loading ? (
          <p className="muted" role="status">
            {t('loading')}
          </p>
        ) : all.length === 0 ? (
          <div className="empty-state" data-testid="agents-empty">
            <p>
              <strong>{t('overview.emptyTitle')}</strong>
            </p>
            <p>{t('overview.emptyText')}</p>
            <Link to={tabHref('builder')} className="btn btn--primary">
              {t('overview.createFirst')}
            </Link>
          </div>
        ) : (
          <ul className="agent-list">
            {all.map((a) => (
              <AgentRow key={a.id} agent={a} shared={!ownedIds.has(a.id) && shared.some((s) => s.id === a.id)} />
            ))}
          </ul>
        )}
      </section>

      {/* The words of the month are on the billing month card: the limits card adds the daily ones. */}
      {usage && <PlanLimits summary={usage} words={false} />}
      {usage && <BillingMonth summary={usage} />}
      <UsageChart series={usage?.series ?? []} />
    </div>
  );
}
