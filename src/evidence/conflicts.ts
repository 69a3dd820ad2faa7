/**
 * E5: facts about the same subject and field that disagree across results are kept side by side
 * as `conflicts[]` entries — every value with its source and retrieval time — never collapsed.
 */
import { canonicalJson, escapePointerToken, resolvePointer, type Conflict, type Envelope } from '../contract/index.js';
import { epochMs } from './datetime.js';

/** How to recognise "the same fact" across results. */
export interface ConflictIdentity {
  /** Pointer (relative to a record) of the subject id, e.g. `/product_id`; or a function returning it. */
  readonly subject: string | ((record: unknown, envelope: Envelope) => string | null | undefined);
  /** Fields to compare (top-level keys of a record). Default: every primitive field but the subject. */
  readonly fields?: readonly string[];
  /** Where records live in each envelope (default `/data`): an object is one record, an array a list of them. */
  readonly records?: string;
}

/** A declared rule that may resolve a conflict on a field. */
export type ResolutionRule =
  | { readonly kind: 'latest_retrieved' }
  | { readonly kind: 'prefer_source'; readonly order: readonly string[] };

/** Options of {@link detectConflicts}. */
export interface DetectConflictsOptions {
  readonly identity: ConflictIdentity;
  /** Per-field resolution rules. A field without a rule stays `unresolved`. */
  readonly rules?: Readonly<Record<string, ResolutionRule>>;
}

interface Observation {
  value: unknown;
  key: string;
  source: string;
  retrieved_at?: string;
  evidence_id?: string;
}

function recordsOf(env: Envelope, pointer: string): { records: unknown[]; list: boolean } {
  const r = resolvePointer(env, pointer);
  if (!r.ok || r.value === null || typeof r.value !== 'object') return { records: [], list: false };
  return Array.isArray(r.value) ? { records: r.value, list: true } : { records: [r.value], list: false };
}

function subjectOf(identity: ConflictIdentity, record: unknown, env: Envelope): string | null {
  if (typeof identity.subject === 'function') return identity.subject(record, env) ?? null;
  const r = resolvePointer(record, identity.subject);
  if (!r.ok || r.value === null || typeof r.value === 'object') return null;
  return String(r.value);
}

function canonicalKey(value: unknown): string | null {
  try {
    return canonicalJson(value);
  } catch {
    return null;
  }
}

/** Evidence of `env` that supports exactly this field of this record. */
function evidenceIdFor(env: Envelope, fieldPointer: string): string | undefined {
  return env.evidence?.find((e) => e.supports.includes(fieldPointer))?.evidence_id;
}

function resolve(rule: ResolutionRule, obs: readonly Observation[]): Observation | null {
  if (rule.kind === 'latest_retrieved') {
    let best: Observation | null = null;
    let bestT = -Infinity;
    let tie = false;
    for (const o of obs) {
      const t = epochMs(o.retrieved_at);
      if (t === null) return null; // cannot order without every time
      if (t > bestT) [best, bestT, tie] = [o, t, false];
      else if (t === bestT && canonicalKey(o.value) !== canonicalKey(best?.value)) tie = true;
    }
    return tie ? null : best;
  }
  for (const source of rule.order) {
    const o = obs.find((x) => x.source === source);
    if (o !== undefined) return o;
  }
  return null;
}

/**
 * Group facts about the same subject and field across `envelopes` and return a conflict entry
 * for each group whose values differ. Sources come from each envelope's provenance.
 * @example
 * detectConflicts([warehouseA, warehouseB], { identity: { subject: '/product_id', fields: ['stock'] } })
 * // [{ field: 'stock', subject: 'sku_001', values: [{ value: 10, source: 'warehouse_a', … }, { value: 0, … }], resolution: 'unresolved' }]
 */
export function detectConflicts(envelopes: readonly Envelope[], options: DetectConflictsOptions): Conflict[] {
  const { identity } = options;
  const recordsPointer = identity.records ?? '/data';
  const groups = new Map<string, { subject: string; field: string; obs: Observation[] }>();
  for (const env of envelopes) {
    const source = env.provenance?.source_id ?? env.call.tool_name;
    const { records, list } = recordsOf(env, recordsPointer);
    records.forEach((record, i) => {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
      const subject = subjectOf(identity, record, env);
      if (subject === null) return;
      const subjectKey = typeof identity.subject === 'string' ? identity.subject.slice(1) : undefined;
      const fields = identity.fields ?? Object.keys(record).filter((k) => k !== subjectKey);
      for (const field of fields) {
        if (!Object.prototype.hasOwnProperty.call(record, field)) continue;
        const value = (record as Record<string, unknown>)[field];
        if (identity.fields === undefined && value !== null && typeof value === 'object') continue;
        const key = canonicalKey(value);
        if (key === null) continue;
        const fieldPointer = `${recordsPointer}${list ? `/${i}` : ''}/${escapePointerToken(field)}`;
        const o: Observation = { value, key, source };
        if (env.provenance?.retrieved_at !== undefined) o.retrieved_at = env.provenance.retrieved_at;
        const evidenceId = evidenceIdFor(env, fieldPointer);
        if (evidenceId !== undefined) o.evidence_id = evidenceId;
        const groupKey = JSON.stringify([subject, field]);
        const g = groups.get(groupKey) ?? { subject, field, obs: [] };
        g.obs.push(o);
        groups.set(groupKey, g);
      }
    });
  }
  const conflicts: Conflict[] = [];
  for (const { subject, field, obs } of groups.values()) {
    if (new Set(obs.map((o) => o.key)).size < 2) continue;
    const values = obs.map((o) => {
      const v: Conflict['values'][number] = { value: o.value, source: o.source };
      if (o.retrieved_at !== undefined) v.retrieved_at = o.retrieved_at;
      if (o.evidence_id !== undefined) v.evidence_id = o.evidence_id;
      return v;
    });
    const conflict: Conflict = { field, subject, values, resolution: 'unresolved' };
    const rule = options.rules?.[field];
    const winner = rule === undefined ? null : resolve(rule, obs);
    if (rule !== undefined && winner !== null) {
      conflict.resolution = 'resolved';
      conflict.rule = rule.kind === 'latest_retrieved' ? 'latest_retrieved' : `prefer_source(${rule.order.join(', ')})`;
      conflict.resolved_value = winner.value;
    }
    conflicts.push(conflict);
  }
  return conflicts;
}
