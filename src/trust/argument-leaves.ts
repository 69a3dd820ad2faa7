/**
 * The texts of a call's arguments that taint checks (SPEC T3): every string and number, and,
 * where the tool's input schema says a member's name is data (a map: `additionalProperties` or
 * `patternProperties` as a schema), the name too. A map of recipients
 * or payees (`{"transfers": {"GB33MIDL4005…": 5000}}`) carries its values in its keys; a name the
 * schema declares (`iban`, `address1`) is the tool's vocabulary, and may well occur in untrusted
 * results as a JSON key, so it is never checked. Without a schema, inside a free-form object, or
 * for a name outside the declared ones, nothing says the name is data, and it is not checked.
 */
import { escapePointerToken, parsePointer } from '../contract/index.js';

/** One argument text: where it is and what it says. */
export interface ArgumentLeaf {
  readonly pointer: string;
  readonly value: string;
}

/** How a schema treats one member name: declared by name, a name that is data, or not said. */
type NameRole = 'declared' | 'data' | 'unknown';
interface Member {
  readonly role: NameRole;
  /** The member value's schema, when known. */
  readonly schema: unknown;
}
const UNKNOWN: Member = { role: 'unknown', schema: undefined };

// $ref chains and nested combinators followed per member; a schema deeper than this (or a cycle)
// says nothing more. The nodes visited per member are capped too: an upstream's schema can make
// branches refer to each other (`anyOf` of ten `$ref`s to itself), and without a cap the walk
// would grow exponentially with the depth.
const MAX_DEPTH = 16;
const MAX_NODES = 256;
const BRANCHES = ['allOf', 'anyOf', 'oneOf', 'then', 'else'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The schema `ref` (a local `#/…` reference) points to in `root`, or undefined. */
function resolve(ref: unknown, root: unknown): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let tokens: string[] | null;
  try {
    tokens = parsePointer(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined; // malformed percent-encoding
  }
  let node: unknown = root;
  for (const token of tokens ?? []) node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[token] : undefined;
  return tokens === null ? undefined : node;
}

/** What the object schema `s` says of the member `key` (`budget`: schema nodes it may still visit). */
function memberOf(s: unknown, key: string, root: unknown, depth: number, budget: { left: number }): Member {
  if (!isObject(s) || depth > MAX_DEPTH || --budget.left < 0) return UNKNOWN;
  const props = s['properties'];
  if (isObject(props) && Object.prototype.hasOwnProperty.call(props, key)) return { role: 'declared', schema: props[key] };
  // Branches and references may declare it; a declaration anywhere wins. Read in place, up to
  // the budget: a branch list can be as long as the server likes.
  let data: Member | undefined;
  const consider = (part: unknown): Member | undefined => {
    if (part === undefined) return undefined;
    const m = memberOf(part, key, root, depth + 1, budget);
    if (m.role === 'data') data ??= m;
    return m.role === 'declared' ? m : undefined;
  };
  let found = consider(resolve(s['$ref'], root));
  for (const b of BRANCHES) {
    const branch = s[b];
    if (!Array.isArray(branch)) found ??= consider(branch);
    else for (let i = 0; i < branch.length && found === undefined && budget.left > 0; i++) found = consider(branch[i]);
    if (found !== undefined || budget.left <= 0) break;
  }
  if (found !== undefined) return found;
  if (data !== undefined) return data;
  const additional = s['additionalProperties'];
  // Pattern names are not tested: a pattern from an untrusted server's schema is not run.
  if (isObject(s['patternProperties'])) return { role: 'data', schema: undefined };
  if (isObject(additional)) return { role: 'data', schema: additional };
  // A name outside the declared ones is no map entry: a tool ignores or refuses it, and a model
  // adds such names (`encoding`, `verbose`) that ordinary text also has.
  return UNKNOWN;
}

/** The schema of item `i` of an array whose schema is `s`, when it says so directly. */
function itemOf(s: unknown, i: number, root: unknown): unknown {
  if (!isObject(s)) return undefined;
  const target = s['$ref'] === undefined ? s : resolve(s['$ref'], root);
  if (!isObject(target)) return undefined;
  const prefix = target['prefixItems'];
  if (Array.isArray(prefix) && i < prefix.length) return prefix[i];
  const items = target['items'];
  if (Array.isArray(items)) return i < items.length ? items[i] : undefined;
  return isObject(items) ? items : undefined;
}

/**
 * The argument texts of `args`, in order: strings and numbers (numbers as written), and the
 * member names `inputSchema` treats as data.
 * @example argumentLeaves({ t: { GB33X: 1 } }, { type: 'object', properties: { t: { type: 'object', additionalProperties: { type: 'number' } } } })
 * // [{ pointer: '/t/GB33X', value: 'GB33X' }, { pointer: '/t/GB33X', value: '1' }]
 */
export function argumentLeaves(args: unknown, inputSchema?: unknown): ArgumentLeaf[] {
  const out: ArgumentLeaf[] = [];
  const checkKeys = isObject(inputSchema);
  // Each entry carries its pointer, the parent's plus one token: copying the path token by token
  // at every level cost time and memory quadratic in the depth (arguments nested 200,000 deep,
  // a 400 kB request, held the gateway's event loop for minutes).
  const stack: { v: unknown; pointer: string; schema: unknown; key?: string }[] = [{ v: args, pointer: '', schema: inputSchema }];
  while (stack.length > 0) {
    const { v, pointer, schema, key } = stack.pop() as (typeof stack)[number];
    if (key !== undefined) out.push({ pointer, value: key });
    // Numbers count as the text they are written as: an amount, an account number.
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') out.push({ pointer, value: String(v) });
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], pointer: `${pointer}/${i}`, schema: checkKeys ? itemOf(schema, i, inputSchema) : undefined });
    else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        const m = checkKeys ? memberOf(schema, k, inputSchema, 0, { left: MAX_NODES }) : UNKNOWN;
        stack.push({ v: (v as Record<string, unknown>)[k], pointer: `${pointer}/${escapePointerToken(k)}`, schema: m.schema, ...(m.role === 'data' ? { key: k } : {}) });
      }
    }
  }
  return out;
}
