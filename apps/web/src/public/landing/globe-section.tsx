import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GlobePoint } from './language-globe';
import { LANGUAGE_POINTS } from './languages';

const LanguageGlobe = lazy(() => import('./language-globe'));

export function webglAvailable(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') || canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

class GlobeBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.warn('Globe unavailable', error);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export function GlobeSection() {
  const { t, i18n } = useTranslation(['public', 'globe']);
  const [hovered, setHovered] = useState<GlobePoint | null>(null);
  const [canRender] = useState(() => typeof window !== 'undefined' && webglAvailable());
  const points = useMemo<GlobePoint[]>(
    () =>
      LANGUAGE_POINTS.map((p) => ({
        ...p,
        name: t(`languages.${p.id}.name`, { ns: 'globe' }),
        region: t(`languages.${p.id}.region`, { ns: 'globe' }),
        speakers: t(`languages.${p.id}.speakers`, { ns: 'globe' }),
        description: t(`languages.${p.id}.description`, { ns: 'globe' }),
      })),
    [t, i18n.language],
  );
  const today = new Date().toLocaleDateString(i18n.language, { year: 'numeric', month: 'long', day: 'numeric' });
  const labels = { region: t('landing.globe.region'), speakers: t('landing.globe.speakers') };
  const fallback = (
    <ul className="language-chips">
      {points.map((p) => (
        <li key={p.id} className="chip" style={{ borderColor: p.color }}>
          {p.name}
        </li>
      ))}
    </ul>
  );

  return (
    <div className="globe-section">
      <div className="globe-wrap">
        {canRender ? (
          <GlobeBoundary fallback={fallback}>
            <ul className="sr-only">
              {points.map((p) => (
                <li key={p.id}>
                  {p.name}: {p.region}, {p.speakers}
                </li>
              ))}
            </ul>
            <Suspense
              fallback={
                <div className="globe-loading" role="status">
                  {t('loading', { ns: 'common' })}
                </div>
              }
            >
              <LanguageGlobe points={points} labels={labels} onSelect={setHovered} />
            </Suspense>
          </GlobeBoundary>
        ) : (
          fallback
        )}
      </div>
      <div className="globe-info">
        <p className="globe-caption">{t('landing.globe.caption', { count: points.length, date: today })}</p>
        <p className="muted">{t('landing.globe.hint')}</p>
        <div className="card globe-details" aria-live="polite" data-testid="globe-details">
          {hovered ? (
            <>
              <h3 style={{ color: hovered.color }}>{hovered.name}</h3>
              <dl className="meta-list">
                <dt>{labels.region}</dt>
                <dd>{hovered.region}</dd>
                <dt>{labels.speakers}</dt>
                <dd>{hovered.speakers}</dd>
              </dl>
              <p>{hovered.description}</p>
            </>
          ) : (
            <p className="muted">{t('landing.globe.detailsPlaceholder')}</p>
          )}
        </div>
      </div>
    </div>
  );
}
