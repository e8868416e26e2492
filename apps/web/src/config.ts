/** Site constants (spec §9) shared by the public pages. */
export const CONTACT_EMAIL = 'contact@gaia-translate.org';
export const WATCH_DEMO_URL = 'https://www.youtube.com/@gaia-translate';
export const MAX_WORDS = 50;
export const MAX_CHARS = 2000;
export const CAROUSEL_INTERVAL_MS = 4000;
export const STICKY_OFFSET_PX = 64;
export const SECTION_VISIBLE_THRESHOLD = 0.3;
export const COPY_CONFIRMATION_MS = 2000;
export const LATEST_AGENTS_COUNT = 3;
export const READING_WORDS_PER_MINUTE = 200;
export const GLOBE = {
  autoRotateSpeed: 0.5,
  pov: { lat: 35, lng: 100, altitude: 1.5 },
  height: 600,
  heightLarge: 700,
  pointRadius: 0.5,
  labelSize: 0.7,
} as const;
