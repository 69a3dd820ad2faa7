/**
 * The single definition of the `agent.tool.result.v1` envelope (SPEC S10).
 *
 * Everything else is derived from this file: the TypeScript types (`Static<…>` in `types.ts`),
 * the published `schema/*.json` and the Ajv standalone validators in `generated/` (all written by
 * `npm run schema`, checked by a drift test). Do not write a second copy of any shape by hand.
 * Run-time code must not import values from here (that loads TypeBox); the `./typebox.ts` entry
 * re-exports them for users who need the schema objects.
 *
 * Longer than the house limit on purpose: one file, read top to bottom, is the whole contract.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import {
  COMPLETENESS_STATES,
  CONTRACT_VERSION,
  ERROR_ACTIONS,
  ERROR_CATEGORIES,
  MEMORY_SOURCES,
  STATUSES,
} from './taxonomy.js';

const literalUnion = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** RFC 3339 timestamp; Ajv checks the format. */
const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339 date-time' });
/** RFC 6901 JSON Pointer, rooted at the envelope (e.g. `/data/status`). */
const Pointer = Type.String({
  pattern: '^(/([^~/]|~[01])*)*$',
  description: 'RFC 6901 JSON Pointer into the envelope',
});
const NonEmpty = Type.String({ minLength: 1 });
/**
 * A list whose absence means "none" (lenient on form): `default: []` says so to every JSON
 * Schema reader, and the generated validators fill it in (Ajv `useDefaults`), so code past
 * `validate()` always finds the array.
 */
const NoneIfAbsent = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(Type.Array(item, { default: [], description }));
const Count = Type.Integer({ minimum: 0 });

export const StatusSchema = literalUnion(STATUSES, 'Execution status of the call (not a business status).');
export const ErrorCategorySchema = literalUnion(ERROR_CATEGORIES, 'Error category (SPEC X2).');
export const ErrorActionSchema = literalUnion(ERROR_ACTIONS, 'Next action for the orchestrator (SPEC X2).');

/** S1 — which call this result answers. */
export const CallSchema = Type.Object(
  {
    tool_name: NonEmpty,
    call_id: NonEmpty,
    attempt: Type.Integer({ minimum: 1 }),
    idempotency_key: Type.Optional(Nullable(NonEmpty)),
  },
  { additionalProperties: false },
);

/** X2 — the error envelope. */
export const ErrorSchema = Type.Object(
  {
    category: ErrorCategorySchema,
    code: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.:-]*$', description: 'Stable machine code' }),
    message: Type.String(),
    retryable: Type.Boolean(),
    action: ErrorActionSchema,
    kind: Type.Optional(
      literalUnion(['protocol', 'execution', 'unknown_outcome'] as const, 'SPEC X1 error kind'),
    ),
    http_status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
    jsonrpc_code: Type.Optional(Type.Integer()),
    retry_after_ms: Type.Optional(Count),
    evidence_ids: Type.Optional(Type.Array(NonEmpty)),
    details: Type.Optional(Type.Unknown({ description: 'Structured payload of the failure, kept as given' })),
  },
  { additionalProperties: false },
);

/** Record of one structural trim made to fit a budget (Z2): what a node kept of its total. */
export const TrimSchema = Type.Object(
  {
    pointer: Pointer,
    kind: literalUnion(['items', 'chars', 'depth', 'field'] as const, 'What was trimmed at this node'),
    kept: Count,
    total: Count,
  },
  { additionalProperties: false },
);

export const CursorSchema = Type.Object(
  {
    type: Type.Literal('cursor'),
    value: NonEmpty,
    expires_at: Type.Optional(Nullable(Timestamp)),
  },
  { additionalProperties: false },
);

/** S5 — whether the data is all there is. `available_items: null` means unknown, never zero. */
export const CompletenessSchema = Type.Object(
  {
    state: literalUnion(COMPLETENESS_STATES, 'complete | truncated | partial | unknown'),
    reason: Type.Optional(Nullable(Type.String())),
    returned_items: Type.Optional(Nullable(Count)),
    available_items: Type.Optional(Nullable(Count)),
    next: Type.Optional(Nullable(CursorSchema)),
    trimmed: Type.Optional(Type.Array(TrimSchema)),
  },
  { additionalProperties: false },
);

/** S6 — where and when. `observed_at` is when the fact happened; `retrieved_at` when we read it. */
export const ProvenanceSchema = Type.Object(
  {
    source_type: NonEmpty,
    source_id: NonEmpty,
    retrieved_at: Timestamp,
    observed_at: Type.Optional(Nullable(Timestamp)),
    version: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: false },
);

const SourceRefSchema = Type.Object(
  {
    type: NonEmpty,
    id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    uri: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/**
 * Where inside a source a fact sits (E1). Open-ended on purpose: a row, a document position,
 * a URL, an API response path. The evidence lint judges whether it is fine-grained enough.
 */
export const LocatorSchema = Type.Object(
  {
    table: Type.Optional(Type.String()),
    primary_key: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Record(Type.String(), Type.Unknown())])),
    columns: Type.Optional(Type.Array(Type.String())),
    document: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    page: Type.Optional(Type.Integer({ minimum: 0 })),
    paragraph: Type.Optional(Type.Integer({ minimum: 0 })),
    line: Type.Optional(Type.Integer({ minimum: 0 })),
    url: Type.Optional(Type.String()),
    retrieved_at: Type.Optional(Timestamp),
    response_path: Type.Optional(Type.String()),
    resource_uri: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** E1 — one piece of evidence and the envelope fields it supports. */
export const EvidenceSchema = Type.Object(
  {
    evidence_id: Type.String({ pattern: '^[A-Za-z0-9_.:-]+$' }),
    kind: Type.Optional(Type.String()),
    source: Type.Optional(Type.Union([Type.String(), SourceRefSchema])),
    locator: Type.Optional(LocatorSchema),
    supports: Type.Array(Pointer),
    quote: Type.Optional(Type.String()),
    observed_at: Type.Optional(Nullable(Timestamp)),
    retrieved_at: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);

/** T7 — one span of instruction-like text found by the detector. */
export const DetectionSpanSchema = Type.Object(
  {
    family: NonEmpty,
    start: Count,
    end: Count,
  },
  { additionalProperties: false },
);

/** T1 — external text held as data, never as instruction. */
export const UntrustedContentSchema = Type.Object(
  {
    content_id: Type.String({ pattern: '^[A-Za-z0-9_.:-]+$' }),
    mime_type: NonEmpty,
    text: Type.String(),
    trust: literalUnion(['untrusted', 'low', 'verified'] as const, 'Trust level of the text'),
    source: Type.Union([Type.String(), SourceRefSchema]),
    instructional: Type.Boolean(),
    families: Type.Optional(Type.Array(NonEmpty)),
    spans: Type.Optional(Type.Array(DetectionSpanSchema)),
    origin: Type.Optional(Pointer),
    allowed_uses: Type.Array(NonEmpty),
    forbidden_uses: Type.Array(NonEmpty),
  },
  { additionalProperties: false },
);

/** S7 — what the model and the user get to see. */
export const PresentationSchema = Type.Object(
  {
    model_content: Type.String(),
    user_visible: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** W1 — whether the outside world changed. Independent of `status`. */
export const SideEffectSchema = Type.Object(
  {
    occurred: Type.Boolean(),
    possibly_occurred: Type.Optional(Type.Boolean()),
    operation: NonEmpty,
    external_id: Type.Optional(Nullable(NonEmpty)),
    idempotency_key: Type.Optional(Nullable(NonEmpty)),
    committed_at: Type.Optional(Nullable(Timestamp)),
  },
  { additionalProperties: false },
);

/** W2 — how to find out what really happened to a write. */
export const ReconciliationSchema = Type.Object(
  {
    required: Type.Boolean(),
    idempotency_key: Type.Optional(NonEmpty),
    query_tool: Type.Optional(NonEmpty),
    query_args: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    state: Type.Optional(
      literalUnion(
        ['pending', 'confirmed_present', 'confirmed_absent', 'unknowable'] as const,
        'Outcome of the last reconciliation attempt',
      ),
    ),
  },
  { additionalProperties: false },
);

export const WarningSchema = Type.Union([
  Type.String(),
  Type.Object(
    {
      code: NonEmpty,
      message: Type.String(),
      pointer: Type.Optional(Pointer),
    },
    { additionalProperties: false },
  ),
]);

/** E5 — facts from several sources that disagree, kept side by side. */
export const ConflictSchema = Type.Object(
  {
    field: NonEmpty,
    subject: Type.Optional(Type.String()),
    values: Type.Array(
      Type.Object(
        {
          value: Type.Unknown(),
          source: Type.Union([Type.String(), SourceRefSchema]),
          retrieved_at: Type.Optional(Timestamp),
          evidence_id: Type.Optional(NonEmpty),
        },
        { additionalProperties: false },
      ),
      { minItems: 2 },
    ),
    resolution: literalUnion(['unresolved', 'resolved'] as const, 'unresolved unless a declared rule resolves it'),
    rule: Type.Optional(Type.String()),
    resolved_value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/** E6 — the declared rule behind an aggregate. */
export const CalculationSchema = Type.Object(
  {
    formula: NonEmpty,
    inputs: Type.Array(NonEmpty, { minItems: 1 }),
    result_pointer: Type.Optional(Pointer),
  },
  { additionalProperties: false },
);

/** Z4 — a full raw result kept outside the model context, fetched on demand by handle. */
export const ResourceRefSchema = Type.Object(
  {
    uri: NonEmpty,
    mime_type: NonEmpty,
    bytes: Count,
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    expires_at: Type.Optional(Nullable(Timestamp)),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** Z4/Z5 — a deterministic description of what was left out, labelled as a summary. */
export const SummarySchema = Type.Object(
  {
    label: Type.Literal('summary'),
    text: Type.String(),
    stats: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/** W4 — a versioned patch to workflow state, so later steps never take an old read as current. */
export const StatePatchSchema = Type.Object(
  {
    key: NonEmpty,
    value: Type.Unknown(),
    base_version: Nullable(Type.Integer({ minimum: 0 })),
    version: Type.Integer({ minimum: 1 }),
    source: Type.Object(
      {
        call_id: NonEmpty,
        tool_name: NonEmpty,
        retrieved_at: Timestamp,
        evidence_ids: Type.Optional(Type.Array(NonEmpty)),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** W5 — a fact proposed for long-term memory, with where it came from. */
export const MemoryCandidateSchema = Type.Object(
  {
    fact: NonEmpty,
    source: literalUnion(MEMORY_SOURCES, 'Origin of the fact'),
    confidence: literalUnion(['high', 'medium', 'low'] as const, 'Confidence in the fact'),
    observed_at: Type.Optional(Nullable(Timestamp)),
    content_id: Type.Optional(NonEmpty),
    decision: Type.Optional(
      literalUnion(['store_as_fact', 'store_as_source_material', 'reject'] as const, 'Write decision'),
    ),
  },
  { additionalProperties: false },
);

/** T5 — a server's own claims about a tool, kept as hints and never used as policy. */
export const ToolHintsSchema = Type.Object(
  {
    origin: NonEmpty,
    trusted: Type.Boolean(),
    annotations: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

/** The full envelope `agent.tool.result.v1`. */
export const EnvelopeSchema = Type.Object(
  {
    contract_version: Type.Literal(CONTRACT_VERSION),
    call: CallSchema,
    status: StatusSchema,
    data: Type.Unknown({ description: 'Observed facts only; null when there are none' }),
    error: Type.Optional(Nullable(ErrorSchema)),
    completeness: Type.Optional(CompletenessSchema),
    provenance: Type.Optional(ProvenanceSchema),
    evidence: Type.Optional(Type.Array(EvidenceSchema, { description: 'absent means none' })),
    untrusted_content: Type.Optional(Type.Array(UntrustedContentSchema, { description: 'absent means none' })),
    presentation: Type.Optional(PresentationSchema),
    side_effect: SideEffectSchema,
    reconciliation: Type.Optional(Nullable(ReconciliationSchema)),
    warnings: NoneIfAbsent(WarningSchema, 'S8 — non-blocking risks that change interpretation; absent means none'),
    result_digest: Type.Optional(Type.String({ pattern: '^sha256:[0-9a-f]{64}$' })),
    conflicts: Type.Optional(Type.Array(ConflictSchema, { description: 'absent means none' })),
    calculation: Type.Optional(CalculationSchema),
    summary: Type.Optional(SummarySchema),
    resources: Type.Optional(Type.Array(ResourceRefSchema)),
    state_patch: Type.Optional(StatePatchSchema),
    memory_candidate: Type.Optional(MemoryCandidateSchema),
    tool_hints: Type.Optional(ToolHintsSchema),
    citable: Type.Optional(Type.Boolean({ description: 'false when E7 or another check made the data non-citable' })),
    extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    $id: 'https://tool-result-contract.dev/schema/agent.tool.result.v1.json',
    title: 'agent.tool.result.v1',
    description: 'A verifiable tool result envelope for AI agents.',
    additionalProperties: false,
  },
);

/**
 * The minimal profile (S11): the fields a tool must produce before it can produce the full
 * envelope. Looser on purpose — no call block, no version, and open to extra fields;
 * completeness and provenance only where the full profile requires them (data to describe).
 */
export const MinimalEnvelopeSchema = Type.Object(
  {
    status: StatusSchema,
    data: Type.Unknown(),
    error: Type.Optional(Nullable(ErrorSchema)),
    completeness: Type.Optional(
      Type.Object(
        {
          state: literalUnion(COMPLETENESS_STATES, 'complete | truncated | partial | unknown'),
          next: Nullable(CursorSchema),
        },
        { additionalProperties: true },
      ),
    ),
    provenance: Type.Optional(
      Type.Object(
        {
          source_type: NonEmpty,
          source_id: NonEmpty,
          observed_at: Nullable(Timestamp),
          retrieved_at: Timestamp,
        },
        { additionalProperties: true },
      ),
    ),
    evidence: NoneIfAbsent(EvidenceSchema, 'absent means none'),
    untrusted_content: NoneIfAbsent(
      Type.Object(
        { content_id: NonEmpty, text: Type.String(), source: Type.Union([Type.String(), SourceRefSchema]) },
        { additionalProperties: true },
      ),
      'absent means none',
    ),
    side_effect: Type.Object({ occurred: Type.Boolean(), operation: NonEmpty }, { additionalProperties: true }),
    warnings: NoneIfAbsent(WarningSchema, 'absent means none'),
  },
  {
    $id: 'https://tool-result-contract.dev/schema/agent.tool.result.minimal.v1.json',
    title: 'agent.tool.result.v1 (minimal profile)',
    additionalProperties: true,
    // As in the full profile (S5, S6): a result with data says how complete it is and where it
    // came from; a failure, a held call or an unknown outcome need not.
    allOf: [{ if: { properties: { status: { enum: ['succeeded', 'partial'] } } }, then: { properties: { completeness: true, provenance: true }, required: ['completeness', 'provenance'] } }],
  },
);
