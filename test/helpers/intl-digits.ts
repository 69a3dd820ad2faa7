/**
 * An oracle for decimal digits of every script: the digits 0–9 of each numbering system the
 * runtime's ICU knows, as it writes them (code point → value). Independent of the trust
 * module's own reading of them.
 */
export const INTL_DIGITS: ReadonlyMap<number, number> = (() => {
  const digits = new Map<number, number>();
  for (const system of Intl.supportedValuesOf('numberingSystem')) {
    const format = new Intl.NumberFormat(`en-u-nu-${system}`, { useGrouping: false });
    for (let d = 0; d < 10; d++) {
      const written = format.format(d);
      if (/^\p{Nd}$/u.test(written)) digits.set(written.codePointAt(0) ?? 0, d);
    }
  }
  return digits;
})();
