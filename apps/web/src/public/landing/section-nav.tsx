import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SECTION_VISIBLE_THRESHOLD, STICKY_OFFSET_PX } from '../../config';

export const LANDING_SECTIONS = ['agents', 'hands-on', 'performance', 'build'] as const;
export type LandingSection = (typeof LANDING_SECTIONS)[number];

/** The section to mark active: the most visible one among those at least 30% visible; null if none is. */
export function pickActiveSection(ratios: ReadonlyMap<string, number>, threshold = SECTION_VISIBLE_THRESHOLD): string | null {
  let best: string | null = null;
  let bestRatio = 0;
  for (const [id, ratio] of ratios) {
    if (ratio >= threshold && ratio > bestRatio) {
      best = id;
      bestRatio = ratio;
    }
  }
  return best;
}

/** Tracks which landing section is in view (at least 30% visible). */
export function useActiveSection(ids: readonly string[]): string {
  const [active, setActive] = useState<string>(ids[0]);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const ratios = new Map<string, number>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) ratios.set(entry.target.id, entry.isIntersecting ? entry.intersectionRatio : 0);
        const next = pickActiveSection(ratios);
        if (next) setActive(next);
      },
      { threshold: [0, SECTION_VISIBLE_THRESHOLD, 0.5, 0.75, 1] },
    );
    for (const id of ids) {
      const el = document.getElementById(id);
      if (el) observer.observe(el);
    }
    return () => observer.disconnect();
  }, [ids]);
  return active;
}

/** The `navigation-tabs` strip: sticky at 64px, with the active section highlighted. */
export function SectionNav() {
  const { t } = useTranslation('public');
  const active = useActiveSection(LANDING_SECTIONS);
  const ref = useRef<HTMLElement>(null);
  const [sticky, setSticky] = useState(false);

  useEffect(() => {
    const onScroll = () => {
      const el = ref.current;
      if (el) setSticky(el.getBoundingClientRect().top <= STICKY_OFFSET_PX);
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const go = (id: string) => {
    const el = document.getElementById(id);
    if (!el) return;
    const y = el.getBoundingClientRect().top + window.scrollY - STICKY_OFFSET_PX - 56;
    window.scrollTo({ top: y, behavior: 'smooth' });
  };

  return (
    <nav id="navigation-tabs" ref={ref} className={`section-tabs${sticky ? ' is-sticky' : ''}`} aria-label={t('landing.tabs.label')}>
      <ul className="container">
        {LANDING_SECTIONS.map((id) => (
          <li key={id}>
            <button
              type="button"
              className={`section-tabs__tab${active === id ? ' is-active' : ''}`}
              aria-current={active === id ? 'true' : undefined}
              onClick={() => go(id)}
            >
              {t(`landing.tabs.${id}`)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
