/** Static globe data (spec §3 Language point). Texts: i18n namespace `globe`, key languages.{id}. */
export interface LanguagePoint {
  id: string;
  lat: number;
  lng: number;
  color: string;
  size: number;
}

const AMERICAS = '#f59e0b';
const EUROPE = '#38bdf8';
const ASIA = '#f472b6';
const AFRICA = '#a3e635';
const OCEANIA = '#c084fc';
const ARCTIC = '#5eead4';

export const LANGUAGE_POINTS: LanguagePoint[] = [
  { id: 'quechua', lat: -13.53, lng: -71.97, color: AMERICAS, size: 0.9 },
  { id: 'guarani', lat: -25.28, lng: -57.64, color: AMERICAS, size: 0.8 },
  { id: 'aymara', lat: -16.5, lng: -68.15, color: AMERICAS, size: 0.6 },
  { id: 'ashaninka', lat: -11.25, lng: -74.64, color: AMERICAS, size: 0.4 },
  { id: 'shipibo', lat: -8.38, lng: -74.55, color: AMERICAS, size: 0.4 },
  { id: 'aguaruna', lat: -5.05, lng: -78.3, color: AMERICAS, size: 0.4 },
  { id: 'nahuatl', lat: 19.43, lng: -99.13, color: AMERICAS, size: 0.6 },
  { id: 'yucatec', lat: 20.97, lng: -89.62, color: AMERICAS, size: 0.5 },
  { id: 'kiche', lat: 14.84, lng: -91.52, color: AMERICAS, size: 0.5 },
  { id: 'mapudungun', lat: -38.74, lng: -72.6, color: AMERICAS, size: 0.4 },
  { id: 'wayuu', lat: 11.54, lng: -72.91, color: AMERICAS, size: 0.4 },
  { id: 'haida', lat: 53.25, lng: -132.08, color: ARCTIC, size: 0.3 },
  { id: 'cherokee', lat: 35.48, lng: -83.31, color: AMERICAS, size: 0.3 },
  { id: 'navajo', lat: 36.07, lng: -109.19, color: AMERICAS, size: 0.5 },
  { id: 'inuktitut', lat: 63.75, lng: -68.52, color: ARCTIC, size: 0.4 },
  { id: 'kalaallisut', lat: 64.18, lng: -51.72, color: ARCTIC, size: 0.4 },
  { id: 'sami', lat: 69.0, lng: 23.0, color: ARCTIC, size: 0.4 },
  { id: 'nenets', lat: 67.64, lng: 53.0, color: ARCTIC, size: 0.3 },
  { id: 'basque', lat: 43.26, lng: -2.93, color: EUROPE, size: 0.5 },
  { id: 'breton', lat: 48.11, lng: -3.2, color: EUROPE, size: 0.4 },
  { id: 'gaelic', lat: 57.48, lng: -5.5, color: EUROPE, size: 0.4 },
  { id: 'karakalpak', lat: 42.46, lng: 59.6, color: ASIA, size: 0.5 },
  { id: 'tuvan', lat: 51.72, lng: 94.44, color: ASIA, size: 0.4 },
  { id: 'sakha', lat: 62.03, lng: 129.73, color: ASIA, size: 0.5 },
  { id: 'ainu', lat: 43.06, lng: 142.5, color: ASIA, size: 0.3 },
  { id: 'khmer', lat: 11.56, lng: 104.92, color: ASIA, size: 0.8 },
  { id: 'hmong', lat: 21.5, lng: 103.9, color: ASIA, size: 0.6 },
  { id: 'tibetan', lat: 29.65, lng: 91.1, color: ASIA, size: 0.6 },
  { id: 'dzongkha', lat: 27.47, lng: 89.64, color: ASIA, size: 0.4 },
  { id: 'santali', lat: 23.8, lng: 86.4, color: ASIA, size: 0.6 },
  { id: 'maori', lat: -38.14, lng: 176.25, color: OCEANIA, size: 0.5 },
  { id: 'hawaiian', lat: 19.9, lng: -155.58, color: OCEANIA, size: 0.4 },
  { id: 'warlpiri', lat: -22.0, lng: 132.0, color: OCEANIA, size: 0.3 },
  { id: 'tokpisin', lat: -6.3, lng: 145.0, color: OCEANIA, size: 0.6 },
  { id: 'moore', lat: 12.37, lng: -1.52, color: AFRICA, size: 0.7 },
  { id: 'wolof', lat: 14.72, lng: -17.47, color: AFRICA, size: 0.7 },
  { id: 'tamasheq', lat: 16.77, lng: -3.01, color: AFRICA, size: 0.5 },
  { id: 'kinyarwanda', lat: -1.95, lng: 30.06, color: AFRICA, size: 0.7 },
  { id: 'tigrinya', lat: 15.32, lng: 38.93, color: AFRICA, size: 0.6 },
  { id: 'xhosa', lat: -32.0, lng: 27.5, color: AFRICA, size: 0.7 },
  { id: 'malagasy', lat: -18.88, lng: 47.51, color: AFRICA, size: 0.7 },
];

const toRadians = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle angle between two points, in radians. */
function angleBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The language point closest to a place on the globe (a tap on a touch screen rarely hits a point exactly). */
export function nearestPoint<P extends { lat: number; lng: number }>(points: readonly P[], at: { lat: number; lng: number }): P | null {
  let best: P | null = null;
  let bestAngle = Infinity;
  for (const p of points) {
    const angle = angleBetween(p, at);
    if (angle < bestAngle) {
      best = p;
      bestAngle = angle;
    }
  }
  return best;
}
