import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UsageSummaryDto } from '@gaia/contracts';
import { formatCost } from '../lib/rules';

export type UsageMetric = 'requests' | 'words' | 'cost';
const METRICS: UsageMetric[] = ['requests', 'words', 'cost'];

const H = 240;
const PAD = { top: 16, right: 16, bottom: 36, left: 64 };

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const exp = Math.pow(10, Math.floor(Math.log10(v)));
  const f = v / exp;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nice * exp;
}

/** Usage over time as an accessible SVG chart (requests, words or cost), with the data as a table for screen readers. */
export function UsageChart({ series }: { series: UsageSummaryDto['series'] }) {
  const { t, i18n } = useTranslation('dashboard');
  const [metric, setMetric] = useState<UsageMetric>('requests');
  // The drawing uses the real width in pixels, so labels keep their size on a phone.
  const box = useRef<HTMLDivElement>(null);
  const [W, setW] = useState(640);
  useEffect(() => {
    const node = box.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      if (width > 0) setW(Math.max(280, width));
    });
    ro.observe(node);
    return () => ro.disconnect();
  }, []);
  const titleId = useId();
  const descId = useId();
  const fmt = (v: number) => (metric === 'cost' ? formatCost(v) : v.toLocaleString(i18n.language));
  const fmtAxis = (v: number) =>
    metric === 'cost' ? `$${v.toPrecision(2).replace(/\.?0+$/, '')}` : v.toLocaleString(i18n.language, { maximumFractionDigits: 1 });
  const points = series.map((p) => ({ date: p.date, value: Number(p[metric]) || 0 }));
  const peak = Math.max(0, ...points.map((p) => p.value));
  // Counts get whole-number ticks (0..4 at least); cost keeps decimals.
  const max = metric === 'cost' ? niceMax(peak) : Math.max(4, Math.ceil(niceMax(peak) / 4) * 4);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length <= 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const area = points.length ? `${line} L${x(points.length - 1).toFixed(1)},${PAD.top + innerH} L${x(0).toFixed(1)},${PAD.top + innerH} Z` : '';
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(2, Math.floor(innerW / 80))));
  const shortDate = (d: string) => {
    const date = new Date(d);
    return Number.isNaN(date.getTime()) ? d : date.toLocaleDateString(i18n.language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  };
  const total = points.reduce((s, p) => s + p.value, 0);

  return (
    <section className="card dash-chart" aria-labelledby={`${titleId}-h`}>
      <div className="card__title-row dash-chart__head">
        <h2 id={`${titleId}-h`} className="card__title">
          {t('overview.usageTitle')}
        </h2>
        <div className="segmented" role="radiogroup" aria-label={t('overview.metricLabel')}>
          {METRICS.map((m) => (
            <button
              key={m}
              type="button"
              role="radio"
              aria-checked={metric === m}
              className={`segmented__option${metric === m ? ' is-active' : ''}`}
              onClick={() => setMetric(m)}
            >
              {t(`overview.metric.${m}`)}
            </button>
          ))}
        </div>
      </div>
      <div ref={box}>
        {points.length === 0 ? (
          <p className="empty-state">{t('overview.usageEmpty')}</p>
        ) : (
          <>
            <svg className="dash-chart__svg" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} data-testid="usage-chart">
              <title id={titleId}>{t('overview.chartTitle', { metric: t(`overview.metric.${metric}`) })}</title>
              <desc id={descId}>{t('overview.chartDesc', { count: points.length, total: fmt(total), max: fmt(Math.max(...points.map((p) => p.value))) })}</desc>
              {ticks.map((v) => (
                <g key={v}>
                  <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="dash-chart__grid" />
                  <text x={PAD.left - 8} y={y(v) + 4} textAnchor="end" className="dash-chart__axis">
                    {fmtAxis(v)}
                  </text>
                </g>
              ))}
              {points.map((p, i) =>
                i % labelEvery === 0 || i === points.length - 1 ? (
                  <text
                    key={p.date}
                    x={x(i)}
                    y={H - 12}
                    textAnchor={points.length > 1 && i === 0 ? 'start' : points.length > 1 && i === points.length - 1 ? 'end' : 'middle'}
                    className="dash-chart__axis"
                  >
                    {shortDate(p.date)}
                  </text>
                ) : null,
              )}
              <path d={area} className="dash-chart__area" />
              <path d={line} className="dash-chart__line" />
              {points.map((p, i) => (
                <circle key={p.date} cx={x(i)} cy={y(p.value)} r={3.5} className="dash-chart__dot">
                  <title>{`${shortDate(p.date)}: ${fmt(p.value)}`}</title>
                </circle>
              ))}
            </svg>
            <div className="visually-hidden">
              <table>
                <caption>{t('overview.chartTitle', { metric: t(`overview.metric.${metric}`) })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('overview.date')}</th>
                    <th scope="col">{t(`overview.metric.${metric}`)}</th>
                  </tr>
                </thead>
                <tbody>
                  {points.map((p) => (
                    <tr key={p.date}>
                      <td>{shortDate(p.date)}</td>
                      <td>{fmt(p.value)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
