import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { useAuth, userLabel } from '../auth/auth-context';
import { settingFromLanguage, storeSetting, type UiLanguage } from '../i18n/language';
import { Logo } from './logo';

interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

export function Header() {
  const { t, i18n } = useTranslation('common');
  const { user, signOut, openSignInDialog } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => setMenuOpen(false), [location.pathname]);

  const onDashboard = location.pathname === '/dashboard' || location.pathname.startsWith('/dashboard/');
  const items: NavItem[] = [
    { to: '/', label: t('nav.home'), end: true },
    { to: '/pricing', label: t('nav.pricing') },
    { to: '/datasets', label: t('nav.datasets') },
    { to: '/models', label: t('nav.agents') },
  ];
  if (user && !onDashboard) items.push({ to: '/dashboard', label: t('nav.dashboard') });

  const mobileItems: NavItem[] = [
    { to: '/datasets', label: t('nav.datasets') },
    { to: '/models', label: t('nav.agents') },
  ];
  if (user && !onDashboard) mobileItems.push({ to: '/dashboard', label: t('nav.dashboard') });

  const handleSignOut = async () => {
    setMenuOpen(false);
    await signOut();
    navigate('/');
  };
  const handleSignIn = () => {
    setMenuOpen(false);
    openSignInDialog();
  };
  const nextLang: UiLanguage = i18n.language === 'en' ? 'es' : 'en';
  const switchLanguage = () => {
    storeSetting(settingFromLanguage(nextLang));
    void i18n.changeLanguage(nextLang);
  };

  return (
    <header className="site-header">
      <div className="site-header__inner container">
        <Link to="/" className="brand" aria-label={t('nav.homeAria')}>
          <Logo />
          <span className="brand__name">Gaia</span>
        </Link>

        <nav className="site-nav" aria-label={t('nav.mainNavigation')}>
          <ul>
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={({ isActive }) => `site-nav__link${isActive ? ' is-active' : ''}`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="site-header__actions">
          <button
            type="button"
            className="btn btn--ghost btn--sm lang-switch"
            onClick={switchLanguage}
            aria-label={`${nextLang.toUpperCase()} · ${t('nav.switchLanguage')}`}
            lang={nextLang}
          >
            {nextLang.toUpperCase()}
          </button>
          {user ? (
            <>
              <span className="user-name" title={userLabel(user, t('nav.user'))}>
                {userLabel(user, t('nav.user'))}
              </span>
              <button type="button" className="btn btn--outline btn--sm" onClick={handleSignOut}>
                {t('nav.signOut')}
              </button>
            </>
          ) : (
            <button type="button" className="btn btn--primary btn--sm" onClick={handleSignIn}>
              {t('nav.signIn')}
            </button>
          )}
        </div>

        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <span className="menu-toggle__bar" aria-hidden="true" />
          <span className="menu-toggle__bar" aria-hidden="true" />
          <span className="menu-toggle__bar" aria-hidden="true" />
        </button>
      </div>

      {menuOpen && (
        <nav id="mobile-menu" className="mobile-menu" aria-label={t('nav.mobileNavigation')}>
          <ul>
            {mobileItems.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className="mobile-menu__link" onClick={() => setMenuOpen(false)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button type="button" className="mobile-menu__link" onClick={switchLanguage} lang={nextLang}>
                {t('nav.switchLanguage')}
              </button>
            </li>
            {user ? (
              <>
                <li className="mobile-menu__user" title={userLabel(user, t('nav.user'))}>
                  {user.displayName?.trim() || user.email?.trim() || t('nav.user')}
                </li>
                <li>
                  <button type="button" className="mobile-menu__link" onClick={handleSignOut}>
                    {t('nav.signOut')}
                  </button>
                </li>
              </>
            ) : (
              <li>
                <button type="button" className="mobile-menu__link mobile-menu__link--primary" onClick={handleSignIn}>
                  {t('nav.signIn')}
                </button>
              </li>
            )}
          </ul>
        </nav>
      )}
    </header>
  );
}
