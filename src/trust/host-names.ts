/**
 * Host names as they occur in free text (`qz.io`, `https://qz.io/c?d=`), found in one linear
 * pass. Argument taint traces runs of six significant characters; a host such as `qz.io` has
 * four, so a URL or a domain argument naming it is traced by the whole host instead.
 */
const MAX_HOST = 253;

const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHostUnit = (c: number): boolean => isLetter(c) || isDigit(c) || c === 0x2d || c === 0x2e;

/**
 * The host in `text` [start, end), trimmed of the dots and dashes around it, lower-cased, when
 * it reads as one: labels of letters, digits and dashes, none empty, the last of two letters or
 * more (a top-level domain); otherwise null.
 */
function hostIn(text: string, start: number, end: number): string | null {
  while (start < end && (text.charCodeAt(start) === 0x2e || text.charCodeAt(start) === 0x2d)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x2d)) end--;
  if (end - start > MAX_HOST) return null;
  let dot = start - 1;
  for (let i = start; i < end; i++) {
    if (text.charCodeAt(i) !== 0x2e) continue;
    if (i === dot + 1) return null; // an empty label
    dot = i;
  }
  if (dot < start || end - dot - 1 < 2) return null;
  for (let i = dot + 1; i < end; i++) if (!isLetter(text.charCodeAt(i))) return null;
  return text.slice(start, end).toLowerCase();
}

/** Letters and digits of a host. */
function significant(host: string): number {
  let n = 0;
  for (let i = 0; i < host.length; i++) if (host.charCodeAt(i) !== 0x2e && host.charCodeAt(i) !== 0x2d) n++;
  return n;
}

/**
 * The host names in `text` (ASCII) with fewer than `shorterThan` letters and digits: every
 * maximal run of letters, digits, dots and dashes that reads as a host (`qz.io`, but not
 * `v1.2`, `e.g.` or `x`). Runs do not overlap, so the pass is linear.
 * @example hostNames('visit QZ.io/c or x.co.', 6) // ['qz.io', 'x.co']
 */
export function hostNames(text: string, shorterThan = Infinity): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isHostUnit(text.charCodeAt(i))) { i++; continue; }
    const start = i;
    while (i < n && isHostUnit(text.charCodeAt(i))) i++;
    const host = hostIn(text, start, i);
    if (host !== null && significant(host) < shorterThan) out.push(host);
  }
  return out;
}

/**
 * The host an argument names: the host of a URL it starts with (`https://qz.io/c?d=…`), or the
 * whole argument when it is a host (`qz.io`); null otherwise.
 * @example argumentHost('https://QZ.io:8443/c?d=1') // 'qz.io'
 */
export function argumentHost(value: string): string | null {
  const v = value.trim();
  const scheme = v.indexOf('://');
  if (scheme < 0) {
    for (let i = 0; i < v.length; i++) if (!isHostUnit(v.charCodeAt(i))) return null;
    return hostIn(v, 0, v.length);
  }
  // The URL must start the argument (a scheme, then `://`): hosts inside longer text are left
  // to the windows.
  if (scheme === 0) return null;
  for (let i = 0; i < scheme; i++) {
    const c = v.charCodeAt(i);
    if (!(isLetter(c) || (i > 0 && (isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)))) return null;
  }
  let end = scheme + 3;
  // Skip credentials (`user:pass@`) before the host; the authority ends at the path, query or fragment.
  let authority = end;
  while (authority < v.length && v[authority] !== '/' && v[authority] !== '?' && v[authority] !== '#') authority++;
  const at = v.lastIndexOf('@', authority - 1);
  if (at >= end) end = at + 1;
  const start = end;
  while (end < v.length && isHostUnit(v.charCodeAt(end))) end++;
  return hostIn(v, start, end);
}
