import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { AccountTab } from '../account/account-tab';
import { ApiTab } from '../api-keys/api-tab';
import { BuilderTab } from '../builder/builder-tab';
import { OverviewTab } from '../overview/overview-tab';
import { TeamTab } from '../team/team-tab';
import { tabFromSearch } from './tabs';

/** The tab of `?tab=` (Dashboard when absent). Focus moves to the tab heading on change. */
export function DashboardTabs() {
  const location = useLocation();
  const tab = tabFromSearch(location.search);
  const ref = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [tab]);
  return (
    <div ref={ref} className="dash-tab">
      {tab === 'overview' && <OverviewTab />}
      {tab === 'builder' && <BuilderTab />}
      {tab === 'api' && <ApiTab />}
      {tab === 'team' && <TeamTab />}
      {tab === 'account' && <AccountTab />}
    </div>
  );
}
