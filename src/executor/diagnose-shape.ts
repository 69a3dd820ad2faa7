/**
 * What `diagnose` reads of an audit record's detail, checked before it is read. A record written
 * by another version of this library, by another program or edited by hand can hold anything;
 * reading `timings_ms.map` off a string made `trc diagnose` an internal error and the inspector's
 * view of that one call a 500. A layer whose fields are not in the shape this version writes is
 * reported `not_checked`, naming the JSON Pointer of each field that is not.
 */
import type { Layer } from './diagnose.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const listOf = (v: unknown, item: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(item);
const optional = (v: unknown, ok: (x: unknown) => boolean): boolean => v === undefined || ok(v);
const nullable = (v: unknown, ok: (x: unknown) => boolean): boolean => v === null || v === undefined || ok(v);
const withStrings = (...keys: string[]) => (x: unknown): boolean => isObject(x) && keys.every((k) => isString(x[k]));

/** One field that is not what this version writes: where, and what it should be. */
interface Check {
  readonly pointer: string;
  readonly ok: boolean;
  readonly expected: string;
}

function checksOf(layer: Layer, d: Obj): Check[] {
  const notes = d['notes'];
  const noteList: Check = {
    pointer: `/detail/notes/${layer}`,
    ok: !isObject(notes) || optional(notes[layer], (v) => listOf(v, isString)),
    expected: 'a list of texts',
  };
  const c = d['call'];
  const e = d['execution'];
  const k = d['contract'];
  switch (layer) {
    case 'call':
      if (c === undefined) return [noteList];
      return [
        { pointer: '/detail/call', ok: isObject(c), expected: 'an object' },
        { pointer: '/detail/call/args_findings', ok: !isObject(c) || c['args_valid'] !== false || listOf(c['args_findings'], withStrings('pointer', 'message')), expected: 'a list of { pointer, message }' },
        { pointer: '/detail/call/authorization_reason', ok: !isObject(c) || optional(c['authorization_reason'], isString), expected: 'a text' },
        { pointer: '/detail/call/args_masked', ok: !isObject(c) || optional(c['args_masked'], (v) => listOf(v, isString)), expected: 'a list of texts' },
        noteList,
      ];
    case 'execution':
      if (e === undefined) return [noteList];
      if (!isObject(e)) return [{ pointer: '/detail/execution', ok: false, expected: 'an object' }];
      return [
        { pointer: '/detail/execution/outcome', ok: isString(e['outcome']), expected: 'a text' },
        { pointer: '/detail/execution/timings_ms', ok: listOf(e['timings_ms'], (t) => typeof t === 'number'), expected: 'a list of numbers' },
        { pointer: '/detail/execution/idempotency_key', ok: e['idempotency_key'] === null || isString(e['idempotency_key']), expected: 'a text or null' },
        { pointer: '/detail/execution/effect_position', ok: e['idempotency_key'] === null || isString(e['effect_position']), expected: 'a text' },
        { pointer: '/detail/execution/classification', ok: nullable(e['classification'], withStrings('category', 'code')), expected: 'null or { category, code }' },
        noteList,
      ];
    case 'contract':
      if (k === undefined) return [noteList];
      if (!isObject(k)) return [{ pointer: '/detail/contract', ok: false, expected: 'an object' }];
      return [
        { pointer: '/detail/contract/findings', ok: listOf(k['findings'], withStrings('severity', 'rule', 'pointer')), expected: 'a list of { severity, rule, pointer }' },
        { pointer: '/detail/execution/classification', ok: !isObject(e) || nullable(e['classification'], withStrings('category', 'code')), expected: 'null or { category, code }' },
        noteList,
      ];
    case 'model': {
      const model = d['model'];
      const env = d['envelope'];
      return [
        { pointer: '/detail/model/hazards', ok: !isObject(model) || optional(model['hazards'], (v) => listOf(v, isString)), expected: 'a list of texts' },
        { pointer: '/detail/envelope/untrusted_content', ok: !isObject(env) || !Array.isArray(env['untrusted_content']) || listOf(env['untrusted_content'], isObject), expected: 'a list of objects' },
        noteList,
      ];
    }
  }
}

/**
 * The fields `diagnose` would read for `layer` that are not in the shape this version writes,
 * as findings naming their pointers; empty when the layer can be read.
 * @example shapeProblems('execution', { execution: { timings_ms: 'x', outcome: 'returned' } })
 * // ['/detail/execution/timings_ms is not a list of numbers in this record']
 */
export function shapeProblems(layer: Layer, detail: Obj): string[] {
  return checksOf(layer, detail).filter((c) => !c.ok).map((c) => `${c.pointer} is not ${c.expected} in this record`);
}
