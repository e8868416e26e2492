import { alignSentences, alignToPairs, splitSentences } from './gale-church';

describe('Gale–Church alignment with lexical anchors', () => {
  it('aligns 1-1 when lengths agree', () => {
    const a = ['Uno dos tres.', 'Una frase bastante más larga que la anterior.', 'Corta.'];
    const b = ['Peteĩ mokõi mbohapy.', 'Peteĩ ñe’ẽ ipukuvéva upe mboyvegua.', 'Mbyky.'];
    expect(alignSentences(a, b).map((x) => [x.source, x.target])).toEqual([
      [[0], [0]],
      [[1], [1]],
      [[2], [2]],
    ]);
  });

  it('finds a 2-1 merge', () => {
    const a = ['Llegó tarde.', 'No había nadie en casa.', 'Se fue a dormir temprano esa noche.'];
    const b = ['Og̃uahẽ ka’aru ha ndaipóri avave hógape.', 'Oho oke pya’e upe pyharépe.'];
    const pairs = alignToPairs(a, b).pairs;
    expect(pairs[0]).toEqual(['Llegó tarde. No había nadie en casa.', b[0]]);
    expect(pairs[1]).toEqual([a[2], b[1]]);
  });

  it('keeps an unmatched insertion out of the pairs when anchors and punctuation disagree', () => {
    const a = ['¿Dónde vive usted?', 'Vivo en Luque desde 1990.', 'Mi casa es grande.'];
    const b = [
      'Moõpa reiko?',
      'Nota del editor: este párrafo explica en detalle el contexto histórico de la conversación, los nombres de los lugares y el origen de las palabras usadas.',
      'Aiko Luquepe 1990 guive.',
      'Che róga tuicha.',
    ];
    const { pairs, unmatched } = alignToPairs(a, b);
    expect(pairs).toEqual([
      [a[0], b[0]],
      [a[1], b[2]],
      [a[2], b[3]],
    ]);
    expect(unmatched).toBe(1);
  });

  it('splits sentences without breaking at abbreviations', () => {
    expect(splitSentences('El Sr. López llegó. ¿Quién es? Es el Dr. Díaz… Sí.')).toEqual(['El Sr. López llegó.', '¿Quién es?', 'Es el Dr. Díaz…', 'Sí.']);
  });
});
