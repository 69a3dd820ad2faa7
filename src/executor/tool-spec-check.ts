/**
 * The plain fields of a tool declaration, checked when the tool is defined: a JavaScript caller's
 * typo (`effect: 'Write'`, `risk: 'critical '`, a source without an id) must fail there, with the
 * field's pointer, and never turn a write into a read or skip a confirmation at call time.
 */

/** A problem with one field of a declaration. */
export interface SpecProblem {
  readonly pointer: string;
  readonly message: string;
}

/** The longest deadline a timer can hold (Node caps `setTimeout` at 2^31 − 1 ms, ~24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const EFFECTS = ['read', 'write'] as const;
const RISKS = ['low', 'medium', 'high', 'critical'] as const;

const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

function oneOf(value: unknown, allowed: readonly string[], pointer: string): SpecProblem | null {
  return typeof value === 'string' && allowed.includes(value) ? null : { pointer, message: `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${JSON.stringify(value) ?? String(value)}` };
}

function textList(value: unknown, pointer: string): SpecProblem | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) return { pointer, message: 'must be an array of JSON Pointer globs' };
  const bad = value.findIndex((v) => typeof v !== 'string');
  return bad < 0 ? null : { pointer: `${pointer}/${bad}`, message: 'must be a string (a JSON Pointer glob into data)' };
}

/**
 * The first problem with the plain fields of `spec` (not its schemas, checked apart), or null.
 * @example toolSpecProblem({ effect: 'Write', … }) // { pointer: '/effect', message: 'must be one of "read", "write", got "Write"' }
 */
export function toolSpecProblem(spec: Readonly<Record<string, unknown>>): SpecProblem | null {
  const timeout = spec['timeoutMs'];
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) return { pointer: '/timeoutMs', message: 'must be a positive number of milliseconds' };
  if (timeout > MAX_TIMEOUT_MS) return { pointer: '/timeoutMs', message: `must be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days, the longest timer Node holds), got ${timeout}` };
  const source = spec['source'] as Record<string, unknown> | null | undefined;
  const checks: (() => SpecProblem | null)[] = [
    () => (isText(spec['description']) ? null : { pointer: '/description', message: 'must be a non-empty string' }),
    () => oneOf(spec['effect'], EFFECTS, '/effect'),
    () => oneOf(spec['risk'], RISKS, '/risk'),
    () => (typeof source === 'object' && source !== null ? null : { pointer: '/source', message: 'must be an object { type, id }' }),
    () => (isText(source?.['type']) ? null : { pointer: '/source/type', message: 'must be a non-empty string (e.g. "database", "web")' }),
    () => (isText(source?.['id']) ? null : { pointer: '/source/id', message: 'must be a non-empty string naming the source' }),
    () => (typeof spec['run'] === 'function' ? null : { pointer: '/run', message: 'must be a function (args, ctx) => output' }),
    () => (spec['operation'] === undefined || isText(spec['operation']) ? null : { pointer: '/operation', message: 'must be a non-empty string when given' }),
    () => (spec['reconcile'] === undefined || typeof spec['reconcile'] === 'function' ? null : { pointer: '/reconcile', message: 'must be a function (key, ctx) => lookup when given' }),
    () => textList(spec['untrusted'], '/untrusted'),
    () => textList(spec['trusted'], '/trusted'),
  ];
  for (const check of checks) {
    const problem = check();
    if (problem !== null) return problem;
  }
  return null;
}
