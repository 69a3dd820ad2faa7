/**
 * Several upstreams behind one gateway: listings are merged, and a tool or prompt name that
 * more than one upstream offers is exposed as `<upstream>__<name>` (names unique to one
 * upstream are kept as they are). With a single upstream nothing is renamed or merged, and
 * listings pass through page by page.
 */
import type { UpstreamConnection } from './upstream.js';

/** Separator between upstream name and tool/prompt name for colliding names. */
export const NAMESPACE_SEPARATOR = '__';

/** Where a client-visible name goes. */
export interface Route {
  readonly upstream: UpstreamConnection;
  readonly name: string;
}

/**
 * Name the items of every upstream, prefixing only names offered by more than one.
 * @example namespaceItems([['a', [{ name: 'x' }]], ['b', [{ name: 'x' }]]]) // a__x, b__x
 */
export function namespaceItems<T extends { name: string }>(
  lists: readonly (readonly [UpstreamConnection, readonly T[]])[],
): { items: T[]; routes: Map<string, Route> } {
  const count = new Map<string, number>();
  for (const [, items] of lists) for (const it of new Set(items.map((i) => i.name))) count.set(it, (count.get(it) ?? 0) + 1);
  const items: T[] = [];
  const routes = new Map<string, Route>();
  for (const [up, list] of lists) {
    for (const item of list) {
      const exposed = (count.get(item.name) ?? 0) > 1 ? `${up.config.name}${NAMESPACE_SEPARATOR}${item.name}` : item.name;
      items.push(exposed === item.name ? item : { ...item, name: exposed });
      routes.set(exposed, { upstream: up, name: item.name });
    }
  }
  return { items, routes };
}
