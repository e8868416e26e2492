import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../layout/use-document-title';
import { GetStartedButton } from './get-started-button';

export const PLAN_IDS = ['free', 'starter', 'enterprise'] as const;
export const POPULAR_PLAN = 'starter';
export const FAQ_IDS = ['words', 'overage', 'change', 'rollover', 'billing', 'languages'] as const;

export function PricingPage() {
  const { t } = useTranslation('public');
  useDocumentTitle(t('pricing.eyebrow'));
  return (
    <div className="container page">
      <header className="page-header">
        <p className="eyebrow">{t('pricing.eyebrow')}</p>
        <h1>{t('pricing.title')}</h1>
        <p className="lead">{t('pricing.subtitle')}</p>
      </header>

      <div className="plans">
        {PLAN_IDS.map((id) => {
          const features = t(`pricing.plans.${id}.features`, { returnObjects: true }) as string[];
          const limitations = t(`pricing.plans.${id}.limitations`, { returnObjects: true }) as string[];
          const popular = id === POPULAR_PLAN;
          return (
            <article key={id} className={`card plan${popular ? ' plan--popular' : ''}`} aria-labelledby={`plan-${id}`}>
              {popular && <span className="badge plan__badge">{t('pricing.mostPopular')}</span>}
              <h2 id={`plan-${id}`} className="plan__name">
                {t(`pricing.plans.${id}.name`)}
              </h2>
              <p className="plan__price">
                <span className="plan__amount">{t(`pricing.plans.${id}.price`)}</span>
                <span className="plan__period">{t('pricing.period')}</span>
              </p>
              <p className="muted">{t(`pricing.plans.${id}.description`)}</p>
              <ul className="plan__features">
                {features.map((f) => (
                  <li key={f}>
                    <span aria-hidden="true" className="check">
                      ✓
                    </span>{' '}
                    {f}
                  </li>
                ))}
              </ul>
              <ul className="plan__limits">
                {limitations.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              <GetStartedButton plan={id} primary={popular} />
              <p className="plan__note">{t('pricing.contactNote')}</p>
            </article>
          );
        })}
      </div>

      <section className="faq" aria-labelledby="faq-heading">
        <h2 id="faq-heading">{t('pricing.faqTitle')}</h2>
        {FAQ_IDS.map((id) => (
          <details key={id} className="faq__item">
            <summary>{t(`pricing.faq.${id}.q`)}</summary>
            <p>{t(`pricing.faq.${id}.a`)}</p>
          </details>
        ))}
      </section>
    </div>
  );
}
