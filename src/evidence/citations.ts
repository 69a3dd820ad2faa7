/**
 * Citation markers in an answer: `[ev_001]`, `[ev_001, ev_002]`, `[ev_001][ev_002]`, and the
 * CJK brackets `【ev_001】`. A bracket followed by `(` is a Markdown link, not a marker.
 */

/** Matches one marker; group 1 holds the id list. */
export const MARKER_SOURCE = '[[【] {0,3}([\\w.:-]+(?: {0,3}[,，、;；] {0,3}[\\w.:-]+)*) {0,3}[\\]】](?!\\()';

/** One marker found in a text. */
export interface CitationMarker {
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  readonly ids: readonly string[];
}

/**
 * Every citation marker in `text`, in order.
 * @example readMarkers('shipped [ev_001, ev_002][ev_003]').flatMap((m) => m.ids) // ['ev_001', 'ev_002', 'ev_003']
 */
export function readMarkers(text: string): CitationMarker[] {
  const out: CitationMarker[] = [];
  for (const m of text.matchAll(new RegExp(MARKER_SOURCE, 'gu'))) {
    const ids = (m[1] ?? '').split(/[,，、;；]/).map((id) => id.trim()).filter((id) => id !== '');
    out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, ids });
  }
  return out;
}

/** The distinct ids cited in `text`, in first-seen order. */
export function citedIds(text: string): string[] {
  return [...new Set(readMarkers(text).flatMap((m) => m.ids))];
}
