import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { WATCH_DEMO_URL } from '../../config';
import { DemoModal } from './demo-modal';
import { GlobeSection } from './globe-section';
import { PhaseDiagram } from './phase-diagram';
import { PostsCarousel } from './posts-carousel';
import { SectionNav } from './section-nav';
import { useDocumentTitle } from '../../layout/use-document-title';
import { formatResponseTime } from '../../lib/response-time';
import { formatNumber } from '../../dashboard/lib/format';
import { MEASURED } from '../documentation/measured';

const STATS = ['sentences', 'languages', 'partners'] as const;
const CHALLENGES = ['extraction', 'retrieval', 'consistency'] as const;
const METRICS = ['bertscore', 'response', 'uploadToReady'] as const;

export function LandingPage() {
  const { t, i18n } = useTranslation('public');
  // Measured figures (bench/results), not typed-in claims; BERTScore is the published study's figure.
  const metricValue = (id: (typeof METRICS)[number]): string =>
    id === 'response'
      ? formatResponseTime(MEASURED.responseTime.p50Seconds, i18n.language)
      : id === 'uploadToReady'
        ? formatResponseTime(MEASURED.uploadToReady.seconds, i18n.language)
        : t(`landing.metrics.${id}.value`);
  useDocumentTitle(t('landing.hero.eyebrow'));
  const [demoOpen, setDemoOpen] = useState(false);

  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <p className="eyebrow eyebrow--light">{t('landing.hero.eyebrow')}</p>
          <h1 id="hero-title" className="hero__title">
            {t('landing.hero.title')}
          </h1>
          <p className="hero__tagline">{t('landing.hero.tagline')}</p>
          <div className="hero__actions">
            <Link to="/dashboard" className="btn btn--primary btn--lg">
              {t('landing.cta.start')}
            </Link>
            <a href={WATCH_DEMO_URL} className="btn btn--light btn--lg" target="_blank" rel="noopener noreferrer">
              ▶ {t('landing.cta.watchDemo')}
            </a>
          </div>
          <dl className="hero__stats">
            {STATS.map((id) => (
              <div key={id} className="hero__stat">
                <dt>{t(`landing.stats.${id}.label`)}</dt>
                <dd>{t(`landing.stats.${id}.value`)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <div className="container carousel-wrap">
        <PostsCarousel />
      </div>

      <SectionNav />

      <section id="agents" className="landing-section" aria-labelledby="agents-title">
        <div className="container">
          <header className="section-header">
            <p className="eyebrow">{t('landing.tabs.agents')}</p>
            <h2 id="agents-title">{t('landing.agents.title')}</h2>
            <p className="lead">{t('landing.agents.text')}</p>
          </header>
          <GlobeSection />
          <blockquote className="statement">{t('landing.statement')}</blockquote>
        </div>
      </section>

      <section id="hands-on" className="landing-section landing-section--tinted" aria-labelledby="sct-title">
        <div className="container">
          <header className="section-header">
            <p className="eyebrow">{t('landing.tabs.hands-on')}</p>
            <h2 id="sct-title">{t('landing.sct.title')}</h2>
            <p className="lead">{t('landing.sct.text')}</p>
          </header>
          <div className="phases">
            <PhaseDiagram
              id="phase-1"
              variant="generate"
              title={t('landing.sct.phase1.title')}
              steps={t('landing.sct.phase1.steps', { returnObjects: true }) as string[]}
            />
            <PhaseDiagram
              id="phase-2"
              variant="refine"
              title={t('landing.sct.phase2.title')}
              steps={t('landing.sct.phase2.steps', { returnObjects: true }) as string[]}
            />
          </div>
          <div className="try-it card">
            <div>
              <h3>{t('landing.handsOn.title')}</h3>
              <p className="muted">{t('landing.handsOn.text')}</p>
            </div>
            <div className="try-it__actions">
              <Link to="/models" className="btn btn--primary">
                {t('landing.handsOn.try')}
              </Link>
              <Link to="/documentation" className="btn btn--outline">
                {t('landing.handsOn.docs')}
              </Link>
            </div>
          </div>
        </div>
      </section>

      <section id="performance" className="landing-section" aria-labelledby="challenges-title">
        <div className="container">
          <header className="section-header">
            <p className="eyebrow">{t('landing.tabs.performance')}</p>
            <h2 id="challenges-title">{t('landing.challenges.title')}</h2>
            <p className="lead">{t('landing.challenges.text')}</p>
          </header>
          <div className="challenge-grid">
            {CHALLENGES.map((id) => (
              <article key={id} className="card challenge" aria-labelledby={`challenge-${id}`}>
                <h3 id={`challenge-${id}`}>{t(`landing.challenges.${id}.title`)}</h3>
                <p className="challenge__label challenge__label--problem">{t('landing.challenges.challenge')}</p>
                <p>{t(`landing.challenges.${id}.challenge`)}</p>
                <p className="challenge__label challenge__label--solution">{t('landing.challenges.solution')}</p>
                <p>{t(`landing.challenges.${id}.solution`)}</p>
              </article>
            ))}
          </div>
          <dl className="metrics">
            {METRICS.map((id) => (
              <div key={id} className="metric">
                <dt>{t(`landing.metrics.${id}.label`, { pairs: formatNumber(MEASURED.uploadToReady.pairs, i18n.language) })}</dt>
                <dd>{metricValue(id)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section id="build" className="landing-section cta" aria-labelledby="cta-title">
        <div className="container cta__inner">
          <h2 id="cta-title">{t('landing.cta.title')}</h2>
          <p className="lead">{t('landing.cta.text')}</p>
          <div className="hero__actions">
            <Link to="/dashboard" className="btn btn--light btn--lg">
              {t('landing.cta.start')}
            </Link>
            <button type="button" className="btn btn--outline-light btn--lg" onClick={() => setDemoOpen(true)}>
              {t('landing.cta.watchDemo')}
            </button>
          </div>
        </div>
      </section>

      {demoOpen && <DemoModal onClose={() => setDemoOpen(false)} />}
    </div>
  );
}
