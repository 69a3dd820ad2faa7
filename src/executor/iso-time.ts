/**
 * Milliseconds → ISO-8601 text, remembering the last conversion. A call stamps the time three
 * times and many calls share one millisecond, so most stamps reuse the previous text.
 */
let lastMs = Number.NaN;
let lastText = '';

/**
 * `new Date(ms).toISOString()` (it throws the same RangeError for an invalid time).
 * @example isoAt(0) // '1970-01-01T00:00:00.000Z'
 */
export function isoAt(ms: number): string {
  if (ms === lastMs) return lastText;
  const text = new Date(ms).toISOString();
  lastMs = ms;
  lastText = text;
  return text;
}
