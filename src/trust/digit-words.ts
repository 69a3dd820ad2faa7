/**
 * The words a value is read out with (spoken-values): digit words by language, English numbers
 * from ten to ninety-nine as people read digit pairs ("fifteen twelve", "thirty-four"), and the
 * filler words between the parts of a value. Data only.
 */

/**
 * Digit words by language, 0 to 9 (further spellings after a `/`): English, French, German,
 * Spanish, Italian, Dutch, Portuguese, Russian, Polish, Czech, Turkish, Swedish, Indonesian and
 * Malay, Vietnamese, Romanian and Greek. Words that are everyday words of another of these
 * languages as well are left out where that would join prose into values (Norwegian and Danish
 * "to", "en").
 */
export const DIGIT_WORDS: readonly (readonly string[])[] = [
  ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  ['zéro/zero', 'un/une', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'],
  ['null', 'eins/ein', 'zwei/zwo', 'drei', 'vier', 'fünf/fuenf', 'sechs', 'sieben', 'acht', 'neun'],
  ['cero', 'uno/una', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'],
  ['zero', 'uno', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove'],
  ['nul', 'een', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen'],
  ['zero', 'um/uma', 'dois/duas', 'três/tres', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove'],
  ['ноль/нуль', 'один/одна', 'два/две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'],
  ['zero', 'jeden/jedna', 'dwa/dwie', 'trzy', 'cztery', 'pięć/piec', 'sześć/szesc', 'siedem', 'osiem', 'dziewięć/dziewiec'],
  ['nula', 'jedna/jeden', 'dva/dvě', 'tři', 'čtyři', 'pět', 'šest', 'sedm', 'osm', 'devět'],
  ['sıfır/sifir', 'bir', 'iki', 'üç', 'dört', 'beş', 'altı', 'yedi', 'sekiz', 'dokuz'],
  ['noll', 'ett', 'två/tva', 'tre', 'fyra', 'fem', 'sex', 'sju', 'åtta/atta', 'nio'],
  ['nol/kosong', 'satu', 'dua', 'tiga', 'empat', 'lima', 'enam', 'tujuh', 'delapan', 'sembilan'],
  ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'],
  ['zero', 'unu', 'doi', 'trei', 'patru', 'cinci', 'șase/sase', 'șapte/sapte', 'opt', 'nouă/noua'],
  ['μηδέν/μηδεν', 'ένα/ενα', 'δύο/δυο', 'τρία/τρια', 'τέσσερα/τεσσερα', 'πέντε/πεντε', 'έξι/εξι', 'επτά/εφτά/επτα', 'οκτώ/οχτώ/οκτω', 'εννέα/εννιά/εννεα'],
];

/** English numbers 10–19, read as their two digits. */
export const TEENS: readonly string[] = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
/** English tens 20–90, by their first digit: "thirty four" and "thirty-four" are 34, "thirty" alone 30. */
export const TENS: readonly string[] = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/**
 * Words between the parts of a value read out, dropped ("then", "and", "dash", …, by language;
 * one-letter ones such as Polish "i" are read as letters anyway).
 */
export const FILLER_WORDS: readonly string[] = [
  'then', 'and', 'dash', 'hyphen', 'space', 'followed', 'by', 'next', 'comma',
  'puis', 'et', 'tiret', 'dann', 'und', 'strich', 'luego', 'guion', 'poi', 'trattino', 'dan', 'en', 'streepje', 'depois', 'hífen', 'hifen',
  'затем', 'потом', 'и', 'тире',
  'potem', 'myślnik', 'pak', 'pomlčka', 'sonra', 've', 'tire', 'sedan', 'och', 'bindestreck', 'lalu', 'kemudian', 'strip',
  'rồi', 'và', 'gạch', 'apoi', 'și', 'si', 'cratimă', 'μετά', 'και', 'παύλα',
];
