import type { AgentDto, QualityHistoryEntry } from '@gaia/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { agentQuery } from '../../api/queries';
import { formatDateTime, formatNumber } from '../lib/format';

const CHART_WIDTH = 260;
const CHART_HEIGHT = 90;
const CHART_PAD = 8;

/** chrF across versions (oldest left) as a small inline SVG line: one point per measured version, 0..1 on the y axis. */
export function QualityChart({ history, label }: { history: QualityHistoryEntry[]; label: string }) {
  const points = history.filter((h) => h.chrf !== null);
  if (points.length === 0) return null;
  const step = points.length > 1 ? (CHART_WIDTH - 2 * CHART_PAD) / (points.length - 1) : 0;
  const xy = points.map((h, i) => [CHART_PAD + i * step, CHART_HEIGHT - CHART_PAD - (h.chrf ?? 0) * (CHART_HEIGHT - 2 * CHART_PAD)] as const);
  return (
    <svg className="quality-chart" viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} role="img" aria-label={label} data-testid="quality-chart">
      <line x1={CHART_PAD} y1={CHART_HEIGHT - CHART_PAD} x2={CHART_WIDTH - CHART_PAD} y2={CHART_HEIGHT - CHART_PAD} className="quality-chart__axis" />
      {xy.length > 1 && <polyline points={xy.map(([x, y]) => `${x},${y}`).join(' ')} className="quality-chart__line" fill="none" />}
      {xy.map(([x, y], i) => (
        <circle key={points[i].version} cx={x} cy={y} r={3} className="quality-chart__point">
          <title>{`${points[i].version}: chrF ${(points[i].chrf ?? 0).toFixed(3)}`}</title>
        </circle>
      ))}
    </svg>
  );
}

/** How often the agent is read again while its new version's report is awaited. */
export const REPORT_POLL_MS = 2_000;
/** How long a finished build's report is awaited on the open page (a report that failed never comes). */
export const REPORT_WAIT_MS = 2 * 60_000;

/**
 * The agent is ready before its quality report: the held-out evaluation of the new version is published 20–30 s
 * later (docs/adr/0006). When a build ends on the open page, the agent is read again every REPORT_POLL_MS until its
 * report is the new version's (an upload's version is its task id), for at most REPORT_WAIT_MS. True while waiting.
 */
function useAwaitedReport(agent: AgentDto): boolean {
  const status = agent.processing_status;
  const reportVersion = agent.quality?.version ?? null;
  /** The build under way: its version and the report the agent had meanwhile. */
  const building = useRef<{ version: string | null; previous: string | null } | null>(null);
  const [awaited, setAwaited] = useState<{ version: string | null; previous: string | null } | null>(null);
  useEffect(() => {
    if (status === 'PROCESSING') {
      building.current = { version: agent.processing_task_id, previous: building.current?.previous ?? reportVersion };
      setAwaited(null);
    } else if (building.current) {
      if (status === 'COMPLETED') setAwaited(building.current);
      building.current = null;
    }
  }, [status, agent.processing_task_id, reportVersion]);
  useEffect(() => {
    if (!awaited) return;
    const timer = setTimeout(() => setAwaited(null), REPORT_WAIT_MS);
    return () => clearTimeout(timer);
  }, [awaited]);
  const arrived = !!awaited && reportVersion !== null && (awaited.version ? reportVersion === awaited.version : reportVersion !== awaited.previous);
  const waiting = !!awaited && !arrived;
  useQuery({ ...agentQuery(agent.id), enabled: waiting, refetchInterval: waiting ? REPORT_POLL_MS : false });
  return waiting;
}

/** The owner page's quality report: scores of the current version on its held-out pairs, the size category, the history and the LLM A/B. */
export function QualityCard({ agent }: { agent: AgentDto }) {
  const { t, i18n } = useTranslation('dashboard');
  const measuring = useAwaitedReport(agent);
  const quality = measuring ? null : (agent.quality ?? null);
  const score = (v: number | null) => (v === null ? '—' : formatNumber(Math.round(v * 1000) / 1000, i18n.language));
  const ab = quality?.ab ?? null;
  return (
    <section className="card" aria-labelledby="quality-heading" data-testid="quality-card">
      <h2 id="quality-heading" className="card__title">
        {t('agentPage.qualityTitle')}
      </h2>
      {measuring && (
        <p className="muted small" role="status" data-testid="quality-measuring">
          {t('agentPage.qualityMeasuring')}
        </p>
      )}
      {!quality && !measuring && <p className="muted small">{t('agentPage.qualityNone')}</p>}
      {quality && (
        <>
          <p className="small">
            <span className="pill" data-testid="quality-category">
              {t(`agentPage.category.${quality.category}`)}
            </span>{' '}
            <span className="muted" title={quality.version}>
              {t('agentPage.qualityVersion', { date: formatDateTime(quality.created_at, i18n.language) })}
            </span>
          </p>
          {!quality.measured && (
            <p className="muted small" data-testid="quality-too-small">
              {t('agentPage.qualityTooSmall')}
            </p>
          )}
          {quality.measured && (
            <dl className="info-list info-list--stacked" data-testid="quality-scores">
              <div>
                <dt>chrF</dt>
                <dd data-testid="quality-chrf">{score(quality.chrf)}</dd>
              </div>
              <div>
                <dt>BLEU</dt>
                <dd data-testid="quality-bleu">{score(quality.bleu)}</dd>
              </div>
              <div>
                <dt title={t('agentPage.qualityMarginHint')}>{t('agentPage.qualityMargin')}</dt>
                <dd data-testid="quality-margin">{score(quality.margin)}</dd>
              </div>
              <div>
                <dt>{t('agentPage.qualityHeldOut')}</dt>
                <dd data-testid="quality-held-out">{formatNumber(quality.held_out, i18n.language)}</dd>
              </div>
            </dl>
          )}
          {quality.history.length > 1 && (
            <>
              <h3 className="small">{t('agentPage.qualityHistory')}</h3>
              <QualityChart history={quality.history} label={t('agentPage.qualityChartLabel', { count: quality.history.length })} />
            </>
          )}
          {ab && (
            <table className="quality-ab small" data-testid="quality-ab">
              <caption>{t('agentPage.qualityAb', { count: ab.pairs })}</caption>
              <thead>
                <tr>
                  <th />
                  <th>chrF</th>
                  <th>BLEU</th>
                  <th>{t('agentPage.qualityMargin')}</th>
                </tr>
              </thead>
              <tbody>
                {(['builtin', 'llm'] as const).map((k) => (
                  <tr key={k}>
                    <th>{t(`agentPage.engine.${k}`)}</th>
                    <td>{score(ab[k].chrf)}</td>
                    <td>{score(ab[k].bleu)}</td>
                    <td>{score(ab[k].margin)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="muted small">{t('agentPage.qualityHelp')}</p>
        </>
      )}
    </section>
  );
}
