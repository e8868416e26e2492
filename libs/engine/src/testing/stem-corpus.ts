/**
 * Made-up corpus: the stem 'habla' (three forms, five times each) always goes with 'rima'; 'hablaron' and 'ayer' are
 * seen once, in the one sentence that has them, and their translations are in the other order.
 */
export function stemCorpus(): { S: string[][]; T: string[][] } {
  const objects: [string, string][] = [
    ['mucho', 'achka'],
    ['poco', 'pisi'],
    ['bien', 'walli'],
    ['fuerte', 'sinchi'],
    ['despacio', 'allilla'],
  ];
  const S: string[][] = [];
  const T: string[][] = [];
  for (const form of ['hablaba', 'hablaban', 'hablar'])
    for (const [o, to] of objects) {
      S.push(['ellos', form, o]);
      T.push(['paykuna', 'rima', to]);
    }
  S.push(['ellos', 'ayer', 'hablaron', 'mucho']);
  T.push(['paykuna', 'rima', 'qayna', 'achka']);
  return { S, T };
}
