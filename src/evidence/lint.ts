/**
 * Evidence lint (E1, E2, E4): supports that do not resolve, evidence too coarse to check a claim
 * against, missing or swapped times, and stale evidence under a per-source freshness policy.
 * Returns findings; never throws on a schema-valid envelope.
 */
import { resolvePointer, type Envelope, type Evidence } from '../contract/index.js';
import { epochMs, nowMs } from './datetime.js';
import { EVIDENCE_RULES, type EvidenceFinding, type EvidenceRuleId } from './findings.js';
import { formatDuration, staleness, sourceKeys, type FreshnessPolicy } from './freshness.js';

/** What {@link lintEvidence} checks against. */
export interface EvidencePolicy {
  /** The moment staleness is judged at (default: not judged). */
  readonly now?: Date | string;
  /** Per-source maximum age; needs `now`. */
  readonly freshness?: FreshnessPolicy;
  /** Source keys known to record when facts happened, so their evidence must carry `observed_at`. */
  readonly observedAtSources?: readonly string[];
}

const LOCATOR_POSITION_KEYS = ['table', 'document', 'url', 'response_path', 'resource_uri', 'page', 'paragraph', 'line'] as const;

function isMultiField(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 1;
  return value !== null && typeof value === 'object' && Object.keys(value).length > 1;
}

function hasPosition(ev: Evidence): boolean {
  const l = ev.locator;
  if (l === undefined) return false;
  return LOCATOR_POSITION_KEYS.some((k) => l[k] !== undefined);
}

function urlOf(ev: Evidence): string | undefined {
  if (ev.locator?.url !== undefined) return ev.locator.url;
  const s = ev.source;
  if (typeof s === 'string') return /^https?:\/\//i.test(s) ? s : undefined;
  return s?.uri !== undefined && /^https?:\/\//i.test(s.uri) ? s.uri : undefined;
}

function urlPinned(ev: Evidence): boolean {
  const l = ev.locator ?? {};
  const s = typeof ev.source === 'object' ? ev.source : undefined;
  const url = urlOf(ev) ?? '';
  const versioned = l.version !== undefined || l.retrieved_at !== undefined || s?.version !== undefined || ev.retrieved_at !== undefined;
  const positioned = l.page !== undefined || l.paragraph !== undefined || l.line !== undefined || l.response_path !== undefined || url.includes('#');
  return versioned || positioned;
}

/**
 * Lint the evidence of one envelope. Throws `TrcError('EVIDENCE_BAD_NOW')` only for an invalid
 * `policy.now`.
 * @example
 * lintEvidence(env, { now: '2026-09-01T03:00:00Z', freshness: { sources: { 'inventory.live': 300_000 } } })
 * // [{ rule: 'E4.stale', pointer: '/evidence/0/retrieved_at', … }]
 */
export function lintEvidence(envelope: Envelope, policy: EvidencePolicy = {}): EvidenceFinding[] {
  const findings: EvidenceFinding[] = [];
  const report = (rule: EvidenceRuleId, pointer: string, message: string, severity: 'error' | 'warning' = 'warning') =>
    findings.push({ rule, pointer, message, severity });
  const evidence = envelope.evidence ?? [];
  const hasData = envelope.data !== null && envelope.data !== undefined;
  if (evidence.length === 0 && hasData && (envelope.status === 'succeeded' || envelope.status === 'partial')) {
    report(EVIDENCE_RULES.E1_NO_EVIDENCE, '/evidence', 'the result carries data but no evidence, so no claim about it can be cited');
  }
  const now = nowMs(policy.now);
  const observedSources = new Set(policy.observedAtSources ?? []);
  const sourceObserves = envelope.provenance?.observed_at !== undefined && envelope.provenance.observed_at !== null;
  evidence.forEach((ev, i) => {
    const at = `/evidence/${i}`;
    lintSupports(envelope, ev, at, report);
    if (!hasPosition(ev)) {
      const where = '(table + key, document position, URL or response path)';
      const message =
        ev.source === undefined
          ? `evidence "${ev.evidence_id}" has neither a source nor a locator ${where}`
          : `evidence "${ev.evidence_id}" names source "${typeof ev.source === 'string' ? ev.source : (ev.source.name ?? ev.source.id ?? ev.source.type)}" but not where in it ${where}`;
      report(EVIDENCE_RULES.E2_BARE_SOURCE, `${at}/locator`, message);
    }
    if (urlOf(ev) !== undefined && ev.locator?.response_path === undefined && !urlPinned(ev)) {
      report(EVIDENCE_RULES.E2_URL_UNPINNED, `${at}/locator`, `evidence "${ev.evidence_id}" cites a URL without a version, retrieval time or position; the page may change under it`);
    }
    const missingObserved = ev.observed_at === undefined || ev.observed_at === null;
    if (missingObserved && (sourceObserves || sourceKeys(ev, envelope).some((k) => observedSources.has(k)))) {
      report(EVIDENCE_RULES.E4_OBSERVED_AT_MISSING, `${at}/observed_at`, `evidence "${ev.evidence_id}" has no observed_at, but its source records when facts happened`);
    }
    const observed = epochMs(ev.observed_at);
    const retrieved = epochMs(ev.retrieved_at ?? envelope.provenance?.retrieved_at);
    if (observed !== null && retrieved !== null && observed > retrieved) {
      report(EVIDENCE_RULES.E4_OBSERVED_AFTER_RETRIEVED, `${at}/observed_at`, `evidence "${ev.evidence_id}" was observed after it was retrieved: observed_at and retrieved_at look swapped`, 'error');
    }
    if (now !== null && policy.freshness !== undefined) {
      const s = staleness(policy.freshness, ev, envelope, now);
      if (s !== null && s.stale) {
        const pointer = ev.retrieved_at !== undefined ? `${at}/retrieved_at` : '/provenance/retrieved_at';
        report(EVIDENCE_RULES.E4_STALE, pointer, `evidence "${ev.evidence_id}" was read ${formatDuration(s.ageMs)} ago (at ${s.retrievedAt}); its source allows ${formatDuration(s.maxAgeMs)}`);
      }
    }
  });
  return findings;
}

type Report = (rule: EvidenceRuleId, pointer: string, message: string, severity?: 'error' | 'warning') => void;

/**
 * Fitting took every field the evidence supported out of the data and re-pointed it at the
 * stored full result (docs/budget.md, "Evidence"): it backs what that resource holds.
 */
function repointedAtResource(envelope: Envelope, ev: Evidence): boolean {
  const uri = ev.locator?.resource_uri;
  return uri !== undefined && (envelope.resources ?? []).some((r) => r.uri === uri);
}

function lintSupports(envelope: Envelope, ev: Evidence, at: string, report: Report): void {
  if (ev.supports.length === 0 && !repointedAtResource(envelope, ev)) {
    report(EVIDENCE_RULES.E1_NO_SUPPORTS, `${at}/supports`, `evidence "${ev.evidence_id}" supports no field`);
  }
  ev.supports.forEach((pointer, j) => {
    const where = `${at}/supports/${j}`;
    const r = resolvePointer(envelope, pointer);
    if (!r.ok) {
      const why = r.reason === 'syntax' ? 'is not a valid JSON Pointer' : `does not resolve (nothing at ${r.at})`;
      report(EVIDENCE_RULES.E2_UNRESOLVED_SUPPORT, where, `supports pointer ${JSON.stringify(pointer)} ${why}`, 'error');
      return;
    }
    if (pointer === '' || (pointer === '/data' && isMultiField(r.value))) {
      report(EVIDENCE_RULES.E2_TOO_COARSE, where, `supports ${JSON.stringify(pointer)} covers a whole multi-field record; point at the fields the evidence backs (e.g. /data/status)`);
    }
  });
}
