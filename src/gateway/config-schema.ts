/**
 * JSON Schema (draft 2020-12) of the gateway configuration file. Ajv checks a parsed YAML/JSON
 * document against it before the gateway starts; every error names the path in the file.
 */
import { authConfigSchema } from './auth/auth-config.js';

const toolPolicy = {
  type: 'object',
  additionalProperties: false,
  properties: {
    effect: { enum: ['read', 'write'], description: 'Side-effect class. Overrides MCP annotations.' },
    idempotent: { type: 'boolean', description: 'A repeat with the same arguments changes nothing further.' },
    honours_key: { type: 'boolean', description: 'The upstream deduplicates on the idempotency key it gets in _meta, so a confirmed-absent write may be resent with the same key.' },
    reconcile: {
      type: 'object',
      additionalProperties: false,
      required: ['tool'],
      properties: {
        tool: { type: 'string', minLength: 1, description: 'Read tool (same upstream) that tells whether a write happened.' },
        args: { type: 'object', description: 'Arguments for the reconciliation tool; "$key" is replaced by the idempotency key.' },
      },
    },
    untrusted_fields: {
      type: 'array',
      items: { type: 'string', pattern: '^(/([^~/]|~[01])*)*$' },
      description: 'JSON Pointers (into the structured result) whose text is external data.',
    },
    visibility: {
      type: 'object',
      additionalProperties: { enum: ['model', 'user', 'internal'] },
      description: 'JSON Pointer → who may see the field; internal fields never leave the gateway.',
    },
    budget: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_bytes: { type: 'integer', minimum: 256 },
        max_tokens: { type: 'integer', minimum: 32 },
      },
    },
    risk: { enum: ['low', 'medium', 'high', 'critical'] },
    confirmation_required: { type: 'boolean', description: 'Calls are held (needs_input) until confirmed.' },
    timeout_ms: { type: 'integer', minimum: 1 },
    source_type: { type: 'string', minLength: 1 },
    ignore_detector_rules: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: 'Instruction-detector rule ids, or prefixes ending in ".", not applied to the result (a tool returning chat transcripts by design: role.turn, role.turns). The text stays isolated. `trc scan --list-rules` lists the ids.',
    },
  },
} as const;

const upstream = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  // An entry with neither is the policy of the `-- CMD` upstream of the command line.
  not: { required: ['command', 'url'] },
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Prefix used when tool names collide.' },
    command: { type: 'string', minLength: 1 },
    args: { type: 'array', items: { type: 'string' } },
    env: { type: 'object', additionalProperties: { type: 'string' } },
    cwd: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    bearer_token_env: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'For a url upstream: the environment variable holding a token sent as "Authorization: Bearer <token>".',
    },
    trusted: { type: 'boolean', description: 'Only then are MCP tool annotations taken as policy (T5) and an embedded envelope adopted.' },
    max_message_bytes: { type: 'integer', minimum: 1024, maximum: 1073741824, description: 'Largest message (one line) accepted from a stdio upstream; a longer one ends the connection with an error that says so. Default 128 MiB.' },
    annotations: { enum: ['policy', 'hint', 'ignore'], description: 'How MCP annotations count: policy (default when trusted), hint (default: readOnlyHint makes a tool a read), ignore.' },
    on_tool_change: { enum: ['flag', 'hold'], description: 'A tool whose description or schemas changed since first seen: flag it (listed marked, calls run) or hold it (calls refused until re-approved).' },
    flagged_tools: { enum: ['marked', 'withheld'], description: 'How a flagged tool or untrusted description is listed: description marked as external text, or withheld.' },
    defaults: toolPolicy,
    tools: { type: 'object', additionalProperties: toolPolicy },
  },
} as const;

/** The configuration schema, kept as data so it can be printed and documented. */
export const gatewayConfigSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://tool-result-contract.dev/schema/gateway.config.json',
  title: 'trc gateway configuration',
  type: 'object',
  additionalProperties: false,
  properties: {
    upstreams: { type: 'array', items: upstream, minItems: 1 },
    defaults: toolPolicy,
    store: { type: 'string', minLength: 1 },
    store_sync: {
      enum: ['full', 'normal'],
      description: 'SQLite durability: "full" syncs every commit to disk (survives power loss); "normal" (default) survives a process crash.',
    },
    principal: { type: 'string', minLength: 1, description: 'Principal of every client session (stdio and HTTP): handles and idempotency keys then carry over from one session to the next, e.g. after a restart. Default: a fresh principal per session.' },
    handle_ttl_seconds: { type: 'integer', minimum: 1 },
    audit_retention_days: { type: 'integer', minimum: 1, description: 'Delete the audit records of calls started more than this many days ago (at start, then with every sweep). Default: keep them all.' },
    auth: authConfigSchema,
  },
} as const;
