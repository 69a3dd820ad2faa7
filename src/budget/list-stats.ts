/**
 * Deterministic column statistics of list items (SPEC Z4): what kinds of items there were,
 * which fields they had, and min/max/sum of numeric fields. Works item by item, so the
 * streaming path can feed it without keeping the items — even without parsing them, from what
 * a `JsonElementScanner` saw of each.
 */
import { objectShape, ShapeCache } from './json-element-shape.js';
import type { ScannedElement } from './json-element-scanner.js';

/** Statistics of one field across items. */
export interface FieldStats {
  present: number;
  numeric: number;
  min?: number;
  max?: number;
  sum?: number;
}

/** Plain-JSON view of {@link ListStats}. */
export interface ListStatsJson {
  readonly count: number;
  readonly types: Record<string, number>;
  readonly fields: Record<string, FieldStats>;
  /** Distinct field names seen after the tracking cap was reached. */
  readonly untracked_fields: number;
  /** min/max/sum when the items themselves are numbers. */
  readonly values?: FieldStats;
}

/** At most this many distinct field names are tracked, so memory stays bounded. */
export const MAX_TRACKED_FIELDS = 64;

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function addNumber(s: FieldStats, v: unknown): void {
  s.present++;
  if (typeof v !== 'number' || !Number.isFinite(v)) return;
  s.numeric++;
  s.min = s.min === undefined || v < s.min ? v : s.min;
  s.max = s.max === undefined || v > s.max ? v : s.max;
  s.sum = (s.sum ?? 0) + v;
}

/** Accumulates statistics item by item. */
export class ListStats {
  private count = 0;
  private readonly types = new Map<string, number>();
  private readonly fields = new Map<string, FieldStats>();
  private readonly untracked = new Set<string>();
  private values: FieldStats | undefined;
  /** The last object shape seen and its field slots: rows of one list usually share a shape. */
  private lastKeys: string[] = [];
  private lastSlots: (FieldStats | null)[] = [];
  /** The same for scanned objects, by raw key bytes: a slot per scanned key (null for a shadowed duplicate). */
  private readonly scannedShapes = new ShapeCache<(FieldStats | null)[]>();

  /** Add one item. */
  add(item: unknown): void {
    this.count++;
    const t = typeOf(item);
    this.types.set(t, (this.types.get(t) ?? 0) + 1);
    if (t === 'number') {
      this.values ??= { present: 0, numeric: 0 };
      addNumber(this.values, item);
    } else if (t === 'object') {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record);
      if (!this.sameShape(keys)) {
        this.lastKeys = keys;
        this.lastSlots = keys.map((key) => this.slot(key));
      }
      const slots = this.lastSlots;
      for (let i = 0; i < keys.length; i++) {
        const s = slots[i];
        if (s !== null && s !== undefined) addNumber(s, record[keys[i] as string]);
      }
    }
  }

  /**
   * Add one item from its scan, with the same effect as `add(JSON.parse(element))`: numbers are
   * exact, and fields are taken in `Object.keys` order with a duplicate key's last value.
   * @example
   * const scanner = new JsonElementScanner();
   * if (scanner.scan(bytes, from, to) === -1) stats.addScanned(scanner);
   */
  addScanned(e: ScannedElement): void {
    this.count++;
    const t = e.type;
    this.types.set(t, (this.types.get(t) ?? 0) + 1);
    if (t === 'number') {
      this.values ??= { present: 0, numeric: 0 };
      addNumber(this.values, e.number);
    } else if (t === 'object') {
      const slots = this.scannedShapes.get(e) ?? this.scannedShapes.set(e, this.slotsOf(e));
      const values = e.keyNumber;
      // NaN marks a value that is not a number: addNumber then counts it present, not numeric.
      for (let k = 0; k < e.keyCount; k++) {
        const s = slots[k];
        if (s !== null && s !== undefined) addNumber(s, values[k]);
      }
    }
  }

  /**
   * Slots of a new scanned shape, taken in Object.keys order so the tracking cap picks the same
   * fields as add(). Slots never change once given, so they can be cached per shape.
   */
  private slotsOf(e: ScannedElement): (FieldStats | null)[] {
    const shape = objectShape(e);
    const slots = new Array<FieldStats | null>(e.keyCount).fill(null);
    for (let j = 0; j < shape.keys.length; j++) slots[shape.source[j] as number] = this.slot(shape.keys[j] as string);
    return slots;
  }

  private sameShape(keys: readonly string[]): boolean {
    const last = this.lastKeys;
    if (keys.length !== last.length) return false;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== last[i]) return false;
    return true;
  }

  /** The stats slot of a field, or null once the tracking cap is reached. */
  private slot(key: string): FieldStats | null {
    let s = this.fields.get(key);
    if (s === undefined) {
      if (this.fields.size >= MAX_TRACKED_FIELDS) {
        // Count distinct overflow names only up to a bound; the number is a lower bound after that.
        if (this.untracked.size < 10_000) this.untracked.add(key);
        return null;
      }
      s = { present: 0, numeric: 0 };
      this.fields.set(key, s);
    }
    return s;
  }

  /** Add many items. */
  addAll(items: Iterable<unknown>): this {
    for (const item of items) this.add(item);
    return this;
  }

  /** Deterministic plain-JSON view: keys sorted by name. */
  toJSON(): ListStatsJson {
    const sorted = <T>(m: Map<string, T>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      count: this.count,
      types: sorted(this.types),
      fields: sorted(this.fields),
      untracked_fields: this.untracked.size,
      ...(this.values === undefined ? {} : { values: { ...this.values } }),
    };
  }
}
