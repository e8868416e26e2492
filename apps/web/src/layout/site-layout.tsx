import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { SignInDialog } from '../auth/sign-in-dialog';
import { Footer } from './footer';
import { Header } from './header';
import { LanguageModal } from './language-modal';
import { ScrollToTop } from './scroll-to-top';

/** Shell of every public page: header, main landmark, footer, language picker and sign-in dialog. */
export function SiteLayout({ footer = true }: { footer?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <>
      <a href="#main" className="skip-link">
        {t('skipToContent')}
      </a>
      <ScrollToTop />
      <Header />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      {footer && <Footer />}
      <LanguageModal />
      <SignInDialog />
    </>
  );
}
