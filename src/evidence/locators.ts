/**
 * Builders for the common evidence locators (E1): a database record, a document position, a
 * pinned URL, an API response path. Each returns schema-valid `Evidence` or throws
 * `TrcError('EVIDENCE_INVALID')` naming the offending field — they are called by tool authors,
 * so bad input is a programming error at a boundary.
 */
import { TrcError, createAjv2020, envelopeJsonSchema, formatPointer, parsePointer, type Evidence } from '../contract/index.js';

/** What every builder accepts besides its locator. */
export interface EvidenceBase {
  /** Stable id, e.g. `ev_001` (`[A-Za-z0-9_.:-]+`). */
  readonly id: string;
  /** Source name or reference, e.g. `orders.primary` or `{ type: 'database', name: 'orders.primary' }`. */
  readonly source?: Evidence['source'];
  /** When the fact happened or was recorded in the source (RFC 3339). */
  readonly observedAt?: string | null;
  /** When the agent read it (RFC 3339). */
  readonly retrievedAt?: string;
  readonly quote?: string;
}

let check: ((value: unknown) => boolean) | undefined;

function finish(evidence: Evidence): Evidence {
  // The evidence item of the published envelope schema (derived from the TypeBox definition):
  // importing TypeBox itself would cost every user of this module ~20 MB.
  check ??= createAjv2020().compile((envelopeJsonSchema() as { properties: { evidence: { items: object } } }).properties.evidence.items);
  if (!check(evidence)) {
    throw new TrcError('EVIDENCE_INVALID', `evidence "${evidence.evidence_id}" is not schema-valid: ${JSON.stringify(evidence)}`, {
      data: { evidence_id: evidence.evidence_id },
    });
  }
  return evidence;
}

function base(kind: string, input: EvidenceBase, supports: readonly string[]): Evidence {
  if (supports.length === 0) {
    throw new TrcError('EVIDENCE_INVALID', `evidence "${input.id}" must support at least one field`, { data: { pointer: '/supports' } });
  }
  for (const [i, p] of supports.entries()) {
    if (parsePointer(p) === null) {
      throw new TrcError('EVIDENCE_INVALID', `supports[${i}] is not a JSON Pointer: ${JSON.stringify(p)}`, { data: { pointer: `/supports/${i}` } });
    }
  }
  const ev: Evidence = { evidence_id: input.id, kind, supports: [...supports] };
  if (input.source !== undefined) ev.source = input.source;
  if (input.quote !== undefined) ev.quote = input.quote;
  if (input.observedAt !== undefined) ev.observed_at = input.observedAt;
  if (input.retrievedAt !== undefined) ev.retrieved_at = input.retrievedAt;
  return ev;
}

/** A database row: table + primary key + the columns it supports. */
export interface RecordLocatorInput extends EvidenceBase {
  readonly table: string;
  readonly primaryKey: string | number | Record<string, unknown>;
  readonly columns: readonly string[];
  /** Where the record sits in the envelope (default `/data`); each column becomes `<record>/<column>`. */
  readonly recordPointer?: string;
}

/**
 * Evidence for columns of one database record; `supports` points at each column's field.
 * @example recordEvidence({ id: 'ev_001', table: 'orders', primaryKey: 'ord_1001', columns: ['status', 'shipped_at'] })
 * // supports: ['/data/status', '/data/shipped_at']
 */
export function recordEvidence(input: RecordLocatorInput): Evidence {
  const record = parsePointer(input.recordPointer ?? '/data');
  if (record === null) throw new TrcError('EVIDENCE_INVALID', 'recordPointer is not a JSON Pointer', { data: { pointer: '/recordPointer' } });
  if (input.table === '') throw new TrcError('EVIDENCE_INVALID', 'table must not be empty', { data: { pointer: '/locator/table' } });
  const ev = base('record', input, input.columns.map((c) => formatPointer([...record, c])));
  ev.locator = { table: input.table, primary_key: input.primaryKey, columns: [...input.columns] };
  return finish(ev);
}

/** A position in a versioned document. At least one of page, paragraph, line. */
export interface DocumentLocatorInput extends EvidenceBase {
  readonly document: string;
  readonly version: string;
  readonly page?: number;
  readonly paragraph?: number;
  readonly line?: number;
  readonly supports: readonly string[];
}

/**
 * Evidence for a passage of a document: document + version + page/paragraph/line.
 * @example documentEvidence({ id: 'ev_policy', document: 'refund-policy.md', version: '2026-07', paragraph: 3, supports: ['/data/refundable'] })
 */
export function documentEvidence(input: DocumentLocatorInput): Evidence {
  if (input.page === undefined && input.paragraph === undefined && input.line === undefined) {
    throw new TrcError('EVIDENCE_INVALID', `document evidence "${input.id}" needs a page, paragraph or line`, { data: { pointer: '/locator' } });
  }
  const ev = base('document', input, input.supports);
  ev.locator = { document: input.document, version: input.version };
  if (input.page !== undefined) ev.locator.page = input.page;
  if (input.paragraph !== undefined) ev.locator.paragraph = input.paragraph;
  if (input.line !== undefined) ev.locator.line = input.line;
  return finish(ev);
}

/** A URL pinned to a version or to the moment it was read. */
export type UrlLocatorInput = EvidenceBase & {
  readonly url: string;
  readonly supports: readonly string[];
} & ({ readonly version: string; readonly retrievedAt?: string } | { readonly version?: string; readonly retrievedAt: string });

/**
 * Evidence for a web page, pinned by version and/or retrieval time (a bare URL is too coarse).
 * @example urlEvidence({ id: 'ev_web', url: 'https://example.com/report#q3', retrievedAt: '2026-09-01T02:00:00Z', supports: ['/data/revenue'] })
 */
export function urlEvidence(input: UrlLocatorInput): Evidence {
  if (input.version === undefined && input.retrievedAt === undefined) {
    throw new TrcError('EVIDENCE_INVALID', `URL evidence "${input.id}" needs a version or a retrieval time`, { data: { pointer: '/locator' } });
  }
  const ev = base('web', input, input.supports);
  ev.locator = { url: input.url };
  if (input.version !== undefined) ev.locator.version = input.version;
  if (input.retrievedAt !== undefined) ev.locator.retrieved_at = input.retrievedAt;
  return finish(ev);
}

/** A field of an API response, located by a JSON Pointer into the response body. */
export interface ApiLocatorInput extends EvidenceBase {
  /** The API operation, e.g. `GET /v1/orders/ord_1001`. */
  readonly endpoint: string;
  /** JSON Pointer into the response body, e.g. `/order/status`. */
  readonly responsePath: string;
  readonly supports: readonly string[];
}

/**
 * Evidence for a field of an API response.
 * @example apiEvidence({ id: 'ev_api', endpoint: 'GET /v1/orders/ord_1001', responsePath: '/order/status', supports: ['/data/status'] })
 */
export function apiEvidence(input: ApiLocatorInput): Evidence {
  if (parsePointer(input.responsePath) === null) {
    throw new TrcError('EVIDENCE_INVALID', `responsePath is not a JSON Pointer: ${JSON.stringify(input.responsePath)}`, {
      data: { pointer: '/locator/response_path' },
    });
  }
  const ev = base('api_response', input, input.supports);
  ev.locator = { url: input.endpoint, response_path: input.responsePath };
  return finish(ev);
}
