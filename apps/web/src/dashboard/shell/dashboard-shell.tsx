import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { Logo } from '../../layout/logo';
import { initials } from '../lib/rules';
import { EmailVerificationNotice } from './email-verification-notice';
import { TABS, tabFromSearch, tabHref, type TabId } from './tabs';

const ICONS: Record<TabId, string> = {
  overview: 'M3 13h8V3H3zm0 8h8v-6H3zm10 0h8V11h-8zm0-18v6h8V3z',
  builder:
    'M22.7 19l-9.1-9.1c.9-2.3.4-5-1.5-6.9-2-2-5-2.4-7.4-1.3L9 6 6 9 1.6 4.7C.4 7.1.9 10.1 2.9 12.1c1.9 1.9 4.6 2.4 6.9 1.5l9.1 9.1c.4.4 1 .4 1.4 0l2.3-2.3c.5-.4.5-1.1.1-1.4z',
  api: 'M12.65 10A6 6 0 1 0 7 18a6 6 0 0 0 5.65-4H17v4h4v-4h2v-4H12.65zM7 14a2 2 0 1 1 0-4 2 2 0 0 1 0 4z',
  team: 'M16 11c1.66 0 2.99-1.34 2.99-3S17.66 5 16 5s-3 1.34-3 3 1.34 3 3 3zm-8 0c1.66 0 2.99-1.34 2.99-3S9.66 5 8 5 5 6.34 5 8s1.34 3 3 3zm0 2c-2.33 0-7 1.17-7 3.5V19h14v-2.5C15 14.17 10.33 13 8 13zm8 0c-.29 0-.62.02-.97.05 1.16.84 1.97 1.97 1.97 3.45V19h6v-2.5c0-2.33-4.67-3.5-7-3.5z',
  account: 'M12 12c2.21 0 4-1.79 4-4s-1.79-4-4-4-4 1.79-4 4 1.79 4 4 4zm0 2c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4z',
};

export function TabIcon({ tab }: { tab: TabId }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={ICONS[tab]} fill="currentColor" />
    </svg>
  );
}

/** Side menu (drawer on small screens) + the current tab or agent page. */
export function DashboardShell() {
  const { t } = useTranslation('dashboard');
  const { user } = useAuth();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const onAgentPage = location.pathname.replace(/\/+$/, '') !== '/dashboard';
  const active: TabId = onAgentPage ? 'overview' : tabFromSearch(location.search);

  useEffect(() => setDrawerOpen(false), [location.pathname, location.search]);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDrawerOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const name = user?.displayName?.trim() || user?.fullName?.trim() || user?.email || '';

  return (
    <div className="dash">
      <div className="dash-topbar">
        <button
          ref={toggleRef}
          type="button"
          className="btn btn--outline btn--sm dash-topbar__toggle"
          aria-expanded={drawerOpen}
          aria-controls="dashboard-menu"
          onClick={() => setDrawerOpen((o) => !o)}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          {drawerOpen ? t('shell.closeMenu') : t('shell.openMenu')}
        </button>
        <span className="dash-topbar__title">{t(`tabs.${active}`)}</span>
      </div>
      {drawerOpen && <div className="dash-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden="true" />}
      <aside id="dashboard-menu" className={`dash-sidebar${drawerOpen ? ' is-open' : ''}`} aria-label={t('shell.menuLabel')}>
        <div className="dash-sidebar__inner">
          <Link to="/" className="dash-sidebar__brand" aria-label={t('shell.home')}>
            <Logo size={30} />
            <span>Gaia</span>
          </Link>
          <nav aria-label={t('shell.navLabel')}>
            <ul className="dash-nav">
              {TABS.map((tab) => (
                <li key={tab}>
                  <Link
                    to={tabHref(tab)}
                    className={`dash-nav__link${tab === active ? ' is-active' : ''}`}
                    aria-current={tab === active && !onAgentPage ? 'page' : undefined}
                  >
                    <TabIcon tab={tab} />
                    <span>{t(`tabs.${tab}`)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {user && (
            <div className="dash-sidebar__user">
              <span className="avatar" aria-hidden="true">
                {initials(name)}
              </span>
              <span className="dash-sidebar__who">
                <strong title={name}>{name}</strong>
                <small title={user.email}>{user.email}</small>
              </span>
            </div>
          )}
        </div>
      </aside>
      <div className="dash-content">
        <EmailVerificationNotice />
        <Outlet />
      </div>
    </div>
  );
}
