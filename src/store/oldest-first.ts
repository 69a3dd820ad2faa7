/**
 * The order in which a memory store's entries were written, so that the oldest can be dropped in
 * constant time. `Map#keys().next()` would give the oldest key too, but a Map that is deleted
 * from at the front keeps the deleted slots until it is rehashed, and every such call walks
 * over them: about 5 µs per call at 10,000 entries, more than storing the record itself.
 */

/** A queue of entries, oldest first; entries that left the store by another way are skipped. */
export interface OldestFirst<T> {
  /** Note an entry as the newest. */
  add(entry: T): void;
  /** Remove and return the oldest entry that `isLive` accepts (the others are discarded), if any. */
  takeOldest(isLive: (entry: T) => boolean): T | undefined;
  /** Forget every entry `isLive` refuses (after a bulk removal), so the queue holds none of them. */
  keepOnly(isLive: (entry: T) => boolean): void;
  /** Entries held, stale ones included. */
  readonly length: number;
}

/** Taken entries are cleared at once, but the array is only shifted once this many are taken. */
const COMPACT_AFTER = 1024;

/**
 * A new, empty queue.
 * @example const q = oldestFirst<string>(); q.add('a'); q.add('b'); q.takeOldest(() => true) // 'a'
 */
export function oldestFirst<T>(): OldestFirst<T> {
  let items: (T | undefined)[] = [];
  let head = 0;
  const compact = (): void => {
    if (head < COMPACT_AFTER || head * 2 < items.length) return;
    items = items.slice(head);
    head = 0;
  };
  return {
    add(entry) {
      items.push(entry);
    },
    takeOldest(isLive) {
      while (head < items.length) {
        const entry = items[head] as T;
        items[head++] = undefined; // let the entry go now, not at the next compaction
        if (isLive(entry)) {
          compact();
          return entry;
        }
      }
      items = [];
      head = 0;
      return undefined;
    },
    keepOnly(isLive) {
      items = items.slice(head).filter((e) => isLive(e as T));
      head = 0;
    },
    get length() {
      return items.length - head;
    },
  };
}
