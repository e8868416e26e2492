import { baseLanguage } from './languages';

/**
 * Small, dependency-free language identification for layout detection. Low-resource languages have no
 * off-the-shelf models, so the main tool is a character n-gram model trained on the document itself
 * (e.g. "do odd and even lines look like two different languages?"); a few stop-word lists for common
 * languages only decide which side is which.
 */

const STOPWORDS: Record<string, string[]> = {
  es: 'de la que el en y a los se del las un por con no una su para es al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos esto antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas está estoy son soy eres hola gracias buenos días casa agua perro bien cómo dónde'.split(
    ' ',
  ),
  en: 'the of and to in is you that it he was for on are as with his they i at be this have from or one had by but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more go see no way could my than first been call who its now find long down day did get come made may part hello thanks good house water dog where'.split(
    ' ',
  ),
  pt: 'de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à seu sua ou ser quando muito há nos já está eu também só pelo pela até isso ela entre era depois sem mesmo aos ter seus quem nas me esse eles estão você tinha foram essa num nem suas meu às minha obrigado olá casa água cachorro'.split(
    ' ',
  ),
  fr: 'de la le et les des en un du une que est pour qui dans par pas au sur ne plus se ce il sont avec je nous vous elle ils mais ou son sa ses leur été être avoir fait comme tout bien très bonjour merci maison eau chien'.split(
    ' ',
  ),
  gn: "ha pe upe ko che nde ñande ore peẽ pende ha'e ha’e hína avei ndaje oĩ ndive rupi gua guive peve ramo jave opa mba'e mba’e heta michĩ porã ndaha'éi ndaipóri ikatu aipo kóva umi peteĩ mokõi mbohapy aguyje mba'éichapa mba’éichapa reiko jajotopata ógape y jagua".split(
    ' ',
  ),
  qu: 'kay chay mana manam wasi runa ñuqa qam pay ari kanki kani chaypi kaypi imata ima may hina pacha allin sumaq unu allqu imaynalla kachkanki sulpayki yuraq puka hatun huchuy wawa warmi qari kuna ñan'.split(
    ' ',
  ),
  ay: 'uka jaqi aka jupa naya juma taqi jichha janiwa jisa kamisaki uta uma anu jach’a jisk’a suma jallalla yuspagara walikiskiwa'.split(' '),
};
const STOPSETS: Record<string, Set<string>> = Object.fromEntries(Object.entries(STOPWORDS).map(([k, v]) => [k, new Set(v)]));

export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFC')
    .split(/[^\p{L}\p{M}'’ʼ]+/u)
    .filter(Boolean);
}

/** Share of tokens that are stop words of `lang` (0 when no list exists for it). */
export function stopwordRate(texts: string[], lang: string): number | null {
  const set = STOPSETS[baseLanguage(lang)];
  if (!set) return null;
  let hits = 0;
  let total = 0;
  for (const t of texts)
    for (const w of tokens(t)) {
      total++;
      if (set.has(w)) hits++;
    }
  return total ? hits / total : 0;
}

/**
 * Decides whether side A (texts) is in `srcLang` and side B in `tgtLang` (→ 'keep'), the other way
 * round (→ 'swap'), or cannot tell (→ 'unknown').
 */
export function orientSides(a: string[], b: string[], srcLang: string, tgtLang: string): 'keep' | 'swap' | 'unknown' {
  let score = 0;
  let signals = 0;
  const sa = stopwordRate(a, srcLang);
  const sb = stopwordRate(b, srcLang);
  if (sa !== null && sb !== null) {
    score += sa - sb;
    signals++;
  }
  const ta = stopwordRate(a, tgtLang);
  const tb = stopwordRate(b, tgtLang);
  if (ta !== null && tb !== null) {
    score += tb - ta;
    signals++;
  }
  if (!signals || Math.abs(score) < 0.03) return 'unknown';
  return score > 0 ? 'keep' : 'swap';
}

export function charGrams(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of tokens(text)) {
    const s = ` ${w} `;
    for (let n = 1; n <= 3; n++)
      for (let i = 0; i + n <= s.length; i++) {
        const g = s.slice(i, i + n);
        if (g === ' ') continue;
        m.set(g, (m.get(g) ?? 0) + 1);
      }
  }
  return m;
}

/**
 * Leave-one-out accuracy of a two-class character n-gram model for the given labelling: each text is
 * scored against class models trained on every other text. Two different languages give ~1.0; a
 * labelling that does not follow language (e.g. odd/even lines of a monolingual text) gives ~0.5.
 */
export function labellingAccuracy(texts: string[], labels: number[]): number {
  const grams = texts.map(charGrams);
  const cls = [new Map<string, number>(), new Map<string, number>()];
  const tot = [0, 0];
  const vocab = new Set<string>();
  grams.forEach((g, i) => {
    const c = cls[labels[i]];
    for (const [k, v] of g) {
      c.set(k, (c.get(k) ?? 0) + v);
      tot[labels[i]] += v;
      vocab.add(k);
    }
  });
  const V = vocab.size + 1;
  const alpha = 0.5;
  let correct = 0;
  let counted = 0;
  grams.forEach((g, i) => {
    if (g.size === 0) return;
    const own = labels[i];
    let n = 0;
    for (const v of g.values()) n += v;
    const score = [0, 0];
    for (const k of [0, 1]) {
      const loo = k === own;
      const denom = Math.log(tot[k] - (loo ? n : 0) + alpha * V);
      for (const [gram, v] of g) {
        const c = (cls[k].get(gram) ?? 0) - (loo ? v : 0);
        score[k] += v * (Math.log(c + alpha) - denom);
      }
    }
    counted++;
    if (score[own] > score[1 - own]) correct++;
  });
  return counted ? correct / counted : 0;
}

/**
 * True when the texts alternate between two languages (even / odd positions). Leave-one-out accuracy
 * must reach 85 %, or miss at most one text on short documents (≤ 12 texts); leave-one-out is biased
 * against chance labellings, so a monolingual text scores well below that.
 */
export function alternatesLanguages(texts: string[]): boolean {
  const n = texts.length;
  if (n < 4) return false;
  const acc = labellingAccuracy(
    texts,
    texts.map((_, i) => i % 2),
  );
  return acc >= 0.85 || (n <= 12 && Math.round(acc * n) >= n - 1);
}
