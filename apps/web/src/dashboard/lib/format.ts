/** Capitalised language name for display ('quechua' → 'Quechua'). */
export function formatLanguage(lang: string | null | undefined): string {
  const s = (lang ?? '').trim();
  return s ? s.charAt(0).toLocaleUpperCase() + s.slice(1) : '';
}

export function formatPair(agent: { src_lang: string; tgt_lang: string }): string {
  return `${formatLanguage(agent.src_lang)} → ${formatLanguage(agent.tgt_lang)}`;
}

export function formatDate(value: string | null | undefined, lang: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(value: string | null | undefined, lang: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(lang, { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function formatNumber(value: number | null | undefined, lang: string): string {
  return (typeof value === 'number' && Number.isFinite(value) ? value : 0).toLocaleString(lang);
}

/** Language suggestions for the Builder and the Edit Agent form. */
export const LANGUAGE_SUGGESTIONS = [
  'Quechua',
  'Spanish',
  'English',
  'Guaraní',
  'Aymara',
  'Asháninka',
  'Shipibo-Konibo',
  'Awajún',
  'Aguaruna',
  'Portuguese',
  'Nahuatl',
  'Mapudungun',
  'Wayuu',
];
