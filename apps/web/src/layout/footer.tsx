import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CONTACT_EMAIL } from '../config';
import { Logo } from './logo';

export function Footer() {
  const { t } = useTranslation('common');
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__brand">
          <Logo size={24} />
          <span className="brand__name">Gaia</span>
          <p className="site-footer__tagline">{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.navigation')} className="site-footer__links">
          <Link to="/documentation">{t('footer.documentation')}</Link>
          <Link to="/pricing">{t('nav.pricing')}</Link>
          <Link to="/datasets">{t('nav.datasets')}</Link>
          <Link to="/models">{t('nav.agents')}</Link>
          <Link to="/privacy">{t('footer.privacy')}</Link>
        </nav>
        <div className="site-footer__contact">
          <span>{t('footer.contact')} </span>
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
        </div>
      </div>
      <p className="site-footer__credit container">{t('footer.credit', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
