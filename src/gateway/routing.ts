/**
 * Several upstreams behind one gateway: listings are merged, and names are unique by
 * construction, so no upstream can shadow another's tool or prompt. A name is kept as it is only
 * when exactly one upstream offers it and it does not contain the separator `__`; every other
 * name is exposed as `<upstream>__<name>`. Upstream names cannot contain `__` (the
 * configuration refuses them), so the first `__` of an exposed name always ends an upstream
 * name: an untrusted server's tool literally named `pay__charge` is exposed as
 * `evil__pay__charge` and can never take the place of upstream `pay`'s `charge`.
 * Resource URIs of several upstreams are namespaced the same way (`trc-upstream://<name>/<uri>`).
 * With a single upstream nothing is renamed or merged, and listings pass through page by page.
 */
import type { UpstreamConnection } from './upstream.js';

/** Separator between upstream name and tool/prompt name. */
export const NAMESPACE_SEPARATOR = '__';

/** Scheme of a namespaced resource URI: `trc-upstream://<upstream>/<the upstream's own URI>`. */
export const UPSTREAM_URI_PREFIX = 'trc-upstream://';

/** Where a client-visible name goes. */
export interface Route {
  readonly upstream: UpstreamConnection;
  readonly name: string;
}

/**
 * Name the items of every upstream: a name offered by one upstream only and free of the
 * separator is kept, every other is prefixed with its upstream's name.
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
      const keep = (count.get(item.name) ?? 0) === 1 && !item.name.includes(NAMESPACE_SEPARATOR);
      const exposed = keep ? item.name : `${up.config.name}${NAMESPACE_SEPARATOR}${item.name}`;
      // One upstream listing one name twice: the first entry is the one routed to.
      if (routes.has(exposed)) continue;
      items.push(exposed === item.name ? item : { ...item, name: exposed });
      routes.set(exposed, { upstream: up, name: item.name });
    }
  }
  return { items, routes };
}

/**
 * The namespaced form of an upstream's resource URI (several upstreams only).
 * @example namespacedUri('fs', 'file:///a.md') // 'trc-upstream://fs/file:///a.md'
 */
export function namespacedUri(upstream: string, uri: string): string {
  return `${UPSTREAM_URI_PREFIX}${upstream}/${uri}`;
}

/**
 * The upstream and its own URI behind a namespaced URI, or null for any other URI.
 * @example upstreamUri('trc-upstream://fs/file:///a.md') // { upstream: 'fs', uri: 'file:///a.md' }
 */
export function upstreamUri(uri: string): { upstream: string; uri: string } | null {
  if (!uri.startsWith(UPSTREAM_URI_PREFIX)) return null;
  const rest = uri.slice(UPSTREAM_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  return { upstream: rest.slice(0, slash), uri: rest.slice(slash + 1) };
}

/**
 * A content block with the URI it names (a resource link's, an embedded resource's) namespaced
 * for `upstream`; any other block as it is. For prompt messages and tool results alike.
 * @example namespaceBlockUri({ type: 'resource_link', uri: 'a://1', name: 'a' }, 'fs').uri // 'trc-upstream://fs/a://1'
 */
export function namespaceBlockUri<T>(block: T, upstream: string): T {
  const b = block as Record<string, unknown> | null;
  if (b?.['type'] === 'resource_link' && typeof b['uri'] === 'string') return { ...b, uri: namespacedUri(upstream, b['uri']) } as T;
  const r = b?.['resource'] as Record<string, unknown> | undefined;
  if (b?.['type'] === 'resource' && typeof r?.['uri'] === 'string') return { ...b, resource: { ...r, uri: namespacedUri(upstream, r['uri']) } } as T;
  return block;
}
