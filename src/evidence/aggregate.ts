/**
 * E6: an aggregate (a total, a minimum, …) is produced only under a declared calculation whose
 * formula and inputs travel with the result, so nobody has to guess the business rule.
 */
import { TrcError, formatPointer, parsePointer, type Calculation } from '../contract/index.js';

/** The operations an aggregate rule may declare. */
export type AggregateOperation = 'sum' | 'min' | 'max' | 'count' | 'mean';

/** A declared aggregation rule, e.g. "sum stock by warehouse". */
export interface AggregateRule {
  readonly operation: AggregateOperation;
  /** The field being aggregated, e.g. `stock`. */
  readonly field: string;
  /** What the inputs are grouped by, e.g. `warehouse` (appears in the formula). */
  readonly by?: string;
  /** Where the result will sit in the envelope, e.g. `/data/total_stock`. */
  readonly resultPointer?: string;
}

/** One input value, labelled so the calculation names it (e.g. `warehouse_a.stock`). */
export interface AggregateInput {
  readonly label: string;
  readonly value: unknown;
}

/** A value computed under a declared calculation: put `value` in `data` and `calculation` beside it. */
export interface AggregateResult {
  readonly value: number;
  readonly calculation: Calculation;
}

const OPERATIONS: ReadonlySet<string> = new Set(['sum', 'min', 'max', 'count', 'mean']);

/**
 * Compute an aggregate under a declared rule. Throws `TrcError('AGGREGATE_UNDECLARED')` without a
 * rule and `TrcError('AGGREGATE_INPUT')` (with the pointer of the bad input) for a non-number.
 * @example
 * aggregate({ operation: 'sum', field: 'stock', by: 'warehouse' }, [
 *   { label: 'warehouse_a.stock', value: 10 }, { label: 'warehouse_b.stock', value: 0 },
 * ]) // { value: 10, calculation: { formula: 'sum(stock by warehouse)', inputs: ['warehouse_a.stock', 'warehouse_b.stock'] } }
 */
export function aggregate(rule: AggregateRule | null | undefined, inputs: readonly AggregateInput[]): AggregateResult {
  if (rule === null || rule === undefined || !OPERATIONS.has(rule.operation) || rule.field === '') {
    throw new TrcError('AGGREGATE_UNDECLARED', 'an aggregate needs a declared rule (operation and field); none was given', { data: { pointer: '/rule' } });
  }
  if (inputs.length === 0) {
    throw new TrcError('AGGREGATE_INPUT', 'an aggregate needs at least one input', { data: { pointer: '/inputs' } });
  }
  const values: number[] = [];
  const labels = new Set<string>();
  inputs.forEach((input, i) => {
    if (typeof input.value !== 'number' || !Number.isFinite(input.value)) {
      throw new TrcError('AGGREGATE_INPUT', `input "${input.label}" is not a finite number: ${JSON.stringify(input.value) ?? String(input.value)}`, {
        data: { pointer: formatPointer(['inputs', i, 'value']) },
      });
    }
    if (input.label === '' || labels.has(input.label)) {
      throw new TrcError('AGGREGATE_INPUT', `input labels must be unique and non-empty; got "${input.label}"`, { data: { pointer: formatPointer(['inputs', i, 'label']) } });
    }
    labels.add(input.label);
    values.push(input.value);
  });
  const calculation: Calculation = {
    formula: `${rule.operation}(${rule.field}${rule.by === undefined ? '' : ` by ${rule.by}`})`,
    inputs: inputs.map((i) => i.label),
  };
  if (rule.resultPointer !== undefined) {
    if (parsePointer(rule.resultPointer) === null) {
      throw new TrcError('AGGREGATE_UNDECLARED', 'resultPointer is not a JSON Pointer', { data: { pointer: '/rule/resultPointer' } });
    }
    calculation.result_pointer = rule.resultPointer;
  }
  return { value: compute(rule.operation, values), calculation };
}

function compute(op: AggregateOperation, values: readonly number[]): number {
  switch (op) {
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'count':
      return values.length;
    case 'mean':
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}
