/**
 * A contract-aware server sends its whole envelope under `_meta["dev.tool-result-contract/envelope"]`.
 * From a server the operator did not mark trusted it is input to check, never truth: it is
 * validated and compared with the wire result, and the finding goes to the audit notes. From a
 * trusted server a valid envelope that agrees with the wire result is adopted (its
 * completeness, evidence, provenance); the call block, the side effect and the model-facing
 * presentation stay the pipeline's own.
 */
import { canonicalJson, digest, validate, type Envelope } from '../contract/index.js';
import { modelView } from '../trust/index.js';

/** What the wire result said, to cross-check the embedded envelope against. */
export interface WireFacts {
  readonly isError: boolean;
  readonly structured: Record<string, unknown> | undefined;
  readonly trusted: boolean;
}

/** The envelope to continue with and what the audit should say about the embedded one. */
export interface EmbeddedCheck {
  readonly envelope: Envelope;
  /** True when the server's envelope was adopted (trusted, valid, agreeing). */
  readonly adopted: boolean;
  readonly note: string;
}

/** Return the wire envelope, or (trusted server only) the agreeing embedded one. */
export function checkEmbeddedEnvelope(wire: Envelope, embedded: unknown, facts: WireFacts): EmbeddedCheck {
  const v = validate(embedded);
  if (!v.valid) {
    const first = v.findings.find((f) => f.severity === 'error');
    return { envelope: wire, adopted: false, note: `the server's own envelope in _meta is not valid (${first?.rule ?? 'SCHEMA'} at ${first?.pointer || '(root)'}): ignored` };
  }
  const env = embedded as Envelope;
  const errorStatus = env.status === 'failed' || env.status === 'unknown';
  if (errorStatus !== facts.isError) return { envelope: wire, adopted: false, note: `the server's own envelope says "${env.status}" but isError is ${facts.isError}: ignored` };
  // A trc renderer sends what the model may see of the data (regions as references) as structured content.
  if (!facts.isError && facts.structured !== undefined && !sameJson(env.data, facts.structured) && !sameJson(modelView(env)['data'], facts.structured)) {
    return { envelope: wire, adopted: false, note: "the server's own envelope carries other data than structuredContent: ignored" };
  }
  if (!facts.trusted) return { envelope: wire, adopted: false, note: "the server's own envelope agrees with the wire result; not adopted (the server is not trusted)" };
  // The server's envelope as it stated it; the call block is the caller's (P1), the model-facing
  // presentation the pipeline's own, and the wire's findings (E7, hints) are kept.
  const { citable: _c, untrusted_content: _u, presentation: _p, call: _call, result_digest: _d, ...rest } = env;
  const adopted: Envelope = {
    ...rest,
    call: wire.call,
    warnings: [...env.warnings, ...wire.warnings],
    untrusted_content: [...(env.untrusted_content ?? []), ...(wire.untrusted_content ?? []).filter((u) => !(env.untrusted_content ?? []).some((e) => e.content_id === u.content_id || (e.origin !== undefined && e.origin === u.origin)))],
    ...(wire.citable === false || env.citable === false ? { citable: false } : {}),
    ...(wire.tool_hints === undefined ? {} : { tool_hints: wire.tool_hints }),
  };
  adopted.result_digest = digest(adopted.data);
  return {
    envelope: adopted,
    adopted: true,
    note: "the trusted server's own envelope agrees with the wire result: adopted",
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
