/**
 * Keep evidence honest after trimming (SPEC Z3/E2): a `supports` pointer whose node survived
 * whole is moved to the node's new place; one whose node was dropped or cut is taken out of
 * `supports` and re-pointed at the external resource, so it never dangles.
 */
import { formatPointer, parsePointer, type Evidence, type Locator } from '../contract/index.js';

/** Canonical relative pointer under `/data`, or null when `pointer` is outside `data`. */
export function dataRelative(pointer: string): string | null {
  const tokens = parsePointer(pointer);
  if (tokens === null || tokens[0] !== 'data') return null;
  return formatPointer(tokens.slice(1));
}

/** Evidence-named targets under `/data` and their ancestors, as relative pointers. */
export function protectedPointers(evidence: readonly Evidence[] | undefined): { targets: Set<string>; onPath: Set<string> } {
  const targets = new Set<string>();
  const onPath = new Set<string>();
  for (const ev of evidence ?? []) {
    for (const p of ev.supports) {
      const rel = dataRelative(p);
      if (rel === null) continue;
      targets.add(rel);
      const tokens = parsePointer(rel) ?? [];
      for (let i = 0; i <= tokens.length; i++) onPath.add(formatPointer(tokens.slice(0, i)));
    }
  }
  return { targets, onPath };
}

/** Where the dropped nodes can be found instead. */
export interface RepointTarget {
  /** URI of the stored raw result, or null when nothing was stored. */
  readonly resourceUri: string | null;
  /** Pointer of `data` inside the stored resource ('' for a raw value, '/data' for an envelope). */
  readonly dataBase: string;
}

/**
 * Rewrite evidence after trimming. `located` maps relative input pointers to their output
 * pointers and whether they survived whole.
 */
export function repointEvidence(
  evidence: readonly Evidence[],
  located: ReadonlyMap<string, { readonly pointer: string; readonly intact: boolean }>,
  where: RepointTarget,
): Evidence[] {
  return evidence.map((ev) => {
    const supports: string[] = [];
    const dropped: string[] = [];
    for (const p of ev.supports) {
      const rel = dataRelative(p);
      if (rel === null) {
        supports.push(p);
        continue;
      }
      const loc = located.get(rel);
      if (loc !== undefined && loc.intact) supports.push('/data' + loc.pointer);
      else dropped.push(where.dataBase + rel);
    }
    if (dropped.length === 0) return { ...ev, supports };
    // The locator schema is open, so extra keys are allowed.
    const locator: Locator & Record<string, unknown> = { ...ev.locator };
    if (ev.locator?.response_path !== undefined) locator['upstream_response_path'] = ev.locator.response_path;
    locator.response_path = dropped[0] as string;
    if (dropped.length > 1) locator['response_paths'] = dropped;
    if (where.resourceUri !== null) locator.resource_uri = where.resourceUri;
    return { ...ev, supports, locator };
  });
}
