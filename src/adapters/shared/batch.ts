/**
 * Parallel calls (P1): results are correlated by call id, never by position. Before anything is
 * written back, the set of requested ids must equal the set of envelopes' ids.
 */
import { TrcError, type Envelope } from '../../contract/index.js';

/**
 * Put envelopes in request order, exactly one per requested call id. Throws
 * `TrcError('BATCH_MISMATCH')` when an id is missing, unexpected or answered twice; the error's
 * `data` lists each kind so the caller can build the missing envelopes (e.g. cancelled ones).
 * @example alignBatch(['c1', 'c2'], [envC2, envC1]) // [envC1, envC2]
 */
export function alignBatch(callIds: readonly string[], envelopes: readonly Envelope[]): Envelope[] {
  const byId = new Map<string, Envelope>();
  const duplicated = new Set<string>();
  for (const env of envelopes) {
    const id = env.call.call_id;
    if (byId.has(id)) duplicated.add(id);
    else byId.set(id, env);
  }
  const requested = new Set<string>();
  const repeatedRequest = new Set<string>();
  for (const id of callIds) {
    if (requested.has(id)) repeatedRequest.add(id);
    requested.add(id);
  }
  const missing = callIds.filter((id) => !byId.has(id));
  const unexpected = [...byId.keys()].filter((id) => !requested.has(id));
  if (missing.length > 0 || unexpected.length > 0 || duplicated.size > 0 || repeatedRequest.size > 0) {
    const parts = [
      missing.length > 0 ? `no result for ${list(missing)}` : '',
      unexpected.length > 0 ? `results for calls never requested: ${list(unexpected)}` : '',
      duplicated.size > 0 ? `more than one result for ${list([...duplicated])}` : '',
      repeatedRequest.size > 0 ? `call ids requested twice: ${list([...repeatedRequest])}` : '',
    ].filter((p) => p !== '');
    throw new TrcError('BATCH_MISMATCH', `tool results do not match the requested calls: ${parts.join('; ')}`, {
      data: { missing, unexpected, duplicated: [...duplicated], requested_twice: [...repeatedRequest] },
    });
  }
  return callIds.map((id) => byId.get(id) as Envelope);
}

/**
 * Render a batch: align it (see {@link alignBatch}) and render each envelope.
 * @example renderBatch(ids, envs, toChatToolMessage)
 */
export function renderBatch<T>(callIds: readonly string[], envelopes: readonly Envelope[], render: (env: Envelope) => T): T[] {
  return alignBatch(callIds, envelopes).map(render);
}

const list = (ids: readonly string[]) => ids.map((id) => JSON.stringify(id)).join(', ');
