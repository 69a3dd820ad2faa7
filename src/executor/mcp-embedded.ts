/**
 * A contract-aware server (e.g. one rendered by `toMcpResult`) sends its whole envelope under
 * `_meta`. It is adopted only when it is valid and agrees with the wire result; even then the
 * call block is the caller's (P1), the server's text is re-isolated unless the server is
 * trusted, and E7 findings made on the wire result are kept.
 */
import { canonicalJson, validate, type Envelope, type SideEffect } from '../../contract/index.js';
import { isErrorStatus } from '../shared/index.js';
import type { IsolateHook } from './types.js';

/** What the wire result said, to cross-check the embedded envelope against. */
export interface WireFacts {
  readonly isError: boolean;
  readonly structured: Record<string, unknown> | undefined;
  readonly trusted: boolean;
  readonly isolate: IsolateHook;
  readonly sideEffect: SideEffect | undefined;
}

/** Return the envelope to use: the embedded one when it checks out, else `wire` plus a warning. */
export function adoptEmbeddedEnvelope(wire: Envelope, embedded: unknown, facts: WireFacts): Envelope {
  const reject = (message: string): Envelope => ({
    ...wire,
    warnings: [...wire.warnings, { code: 'MCP_META_ENVELOPE_IGNORED', message }],
  });
  const v = validate(embedded);
  if (!v.valid) {
    const first = v.findings.find((f) => f.severity === 'error');
    return reject(`the envelope in _meta is not valid (${first?.rule ?? 'SCHEMA'} at ${first?.pointer || '(root)'}); the wire result was used`);
  }
  const env = embedded as Envelope;
  if (isErrorStatus(env) !== facts.isError) {
    return reject(`the envelope in _meta says "${env.status}" but isError is ${facts.isError}; the wire result was used`);
  }
  if (!facts.isError && facts.structured !== undefined && !sameJson(env.data, facts.structured)) {
    return reject('the envelope in _meta carries other data than structuredContent; the wire result was used');
  }
  const untrusted = facts.trusted
    ? env.untrusted_content
    : env.untrusted_content?.map((u) =>
        facts.isolate(u.text, {
          content_id: u.content_id,
          mime_type: u.mime_type,
          source: typeof u.source === 'string' ? { type: 'mcp', name: u.source } : { ...u.source, name: u.source.name ?? u.source.type },
          origin: u.origin ?? '/untrusted_content',
        }),
      );
  const citable = wire.citable === false ? false : env.citable;
  const { citable: _c, untrusted_content: _u, ...rest } = env;
  return {
    ...rest,
    call: wire.call,
    ...(untrusted === undefined ? {} : { untrusted_content: untrusted }),
    ...(citable === undefined ? {} : { citable }),
    ...(facts.sideEffect === undefined ? {} : { side_effect: facts.sideEffect }),
    warnings: [...env.warnings, ...wire.warnings],
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
