import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../layout/use-document-title';

export const PRIVACY_SECTIONS = ['ownership', 'data', 'responsibilities', 'termination', 'jurisdiction'] as const;

export function PrivacyPage() {
  const { t } = useTranslation('public');
  useDocumentTitle(t('privacy.title'));
  return (
    <article className="container page page-narrow prose">
      <h1>{t('privacy.title')}</h1>
      <p className="muted">{t('privacy.updated')}</p>
      <p>{t('privacy.intro')}</p>
      {PRIVACY_SECTIONS.map((id, i) => (
        <section key={id} aria-labelledby={`privacy-${id}`}>
          <h2 id={`privacy-${id}`}>
            {i + 1}. {t(`privacy.sections.${id}.title`)}
          </h2>
          {(t(`privacy.sections.${id}.paragraphs`, { returnObjects: true }) as string[]).map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
