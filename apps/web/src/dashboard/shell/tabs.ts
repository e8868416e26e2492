export const TABS = ['overview', 'builder', 'api', 'team', 'account'] as const;
export type TabId = (typeof TABS)[number];

export function tabFromSearch(search: string): TabId {
  const value = new URLSearchParams(search).get('tab');
  return (TABS as readonly string[]).includes(value ?? '') ? (value as TabId) : 'overview';
}

export function tabHref(tab: TabId): string {
  return tab === 'overview' ? '/dashboard' : `/dashboard?tab=${tab}`;
}
