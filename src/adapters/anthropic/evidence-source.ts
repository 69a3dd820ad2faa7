/**
 * The `source` string of a search result that carries evidence: `trc:evidence/<call>/<id>`,
 * both parts percent-encoded so any call id survives the trip through the model's citation.
 */

const PREFIX = 'trc:evidence/';

/** Build the search-result source for one piece of evidence. */
export function evidenceSource(callId: string, evidenceId: string): string {
  return `${PREFIX}${encodeURIComponent(callId)}/${encodeURIComponent(evidenceId)}`;
}

/** Read a search-result source back; undefined for sources this library did not write. */
export function parseEvidenceSource(source: string): { call_id: string; evidence_id: string } | undefined {
  if (!source.startsWith(PREFIX)) return undefined;
  const parts = source.slice(PREFIX.length).split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  try {
    return { call_id: decodeURIComponent(parts[0] as string), evidence_id: decodeURIComponent(parts[1] as string) };
  } catch {
    return undefined;
  }
}
