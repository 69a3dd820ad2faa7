/**
 * The options of a run, checked when it starts: a scope given as a string would match tool names
 * by substring (`'read_file, sender'.includes('send')`), and a malformed rule would hold or let
 * through calls for no stated reason. Each problem names its JSON Pointer.
 */

/** A problem with one field of a run's options. */
export interface RunOptionProblem {
  readonly pointer: string;
  readonly message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(value: unknown, pointer: string, what: string): RunOptionProblem | null {
  if (!Array.isArray(value)) return { pointer, message: `must be an array of ${what}` };
  const bad = value.findIndex((v) => typeof v !== 'string');
  return bad < 0 ? null : { pointer: `${pointer}/${bad}`, message: `must be a string (${what})` };
}

function ruleProblem(rule: unknown, pointer: string): RunOptionProblem | null {
  if (!isObject(rule)) return { pointer, message: 'must be an object { argument, allowed, match? }' };
  const argument = rule['argument'];
  if (typeof argument !== 'string' || !/^(\/([^~/]|~[01])*)+$/.test(argument)) return { pointer: `${pointer}/argument`, message: 'must be a JSON Pointer into the arguments, such as "/path"' };
  const allowed = rule['allowed'];
  if (typeof allowed !== 'function') {
    const bad = stringList(allowed, `${pointer}/allowed`, 'allowed values');
    if (bad !== null) return bad;
  }
  const match = rule['match'];
  if (match !== undefined && match !== 'exact' && match !== 'prefix') return { pointer: `${pointer}/match`, message: `must be "exact" or "prefix", got ${JSON.stringify(match) ?? String(match)}` };
  return null;
}

/**
 * The first problem with a run scope `{ tools?, resources? }` (pointers rooted at the scope), or null.
 * @example runScopeProblem({ tools: 'read_file' }) // { pointer: '/tools', message: 'must be an array of tool names' }
 */
export function runScopeProblem(scope: unknown): RunOptionProblem | null {
  if (!isObject(scope)) return { pointer: '', message: 'must be an object { tools?, resources? }' };
  if (scope['tools'] !== undefined) {
    const bad = stringList(scope['tools'], '/tools', 'tool names');
    if (bad !== null) return bad;
  }
  const resources = scope['resources'];
  if (resources === undefined) return null;
  if (!isObject(resources)) return { pointer: '/resources', message: 'must be an object: tool name → [{ argument, allowed, match? }]' };
  for (const [tool, rules] of Object.entries(resources)) {
    const at = `/resources/${tool.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!Array.isArray(rules)) return { pointer: at, message: 'must be an array of { argument, allowed, match? }' };
    for (let i = 0; i < rules.length; i++) {
      const bad = ruleProblem(rules[i], `${at}/${i}`);
      if (bad !== null) return bad;
    }
  }
  return null;
}

/**
 * The first problem with the options of a run (pointers rooted at the options), or null.
 * @example runOptionsProblem({ trustedText: 'hi' }) // { pointer: '/trustedText', … }
 */
export function runOptionsProblem(options: unknown): RunOptionProblem | null {
  if (options === undefined) return null;
  if (!isObject(options)) return { pointer: '', message: 'must be an object' };
  const id = options['id'];
  if (id !== undefined && (typeof id !== 'string' || id === '')) return { pointer: '/id', message: 'must be a non-empty string' };
  if (options['scope'] !== undefined) {
    const bad = runScopeProblem(options['scope']);
    if (bad !== null) return { pointer: `/scope${bad.pointer}`, message: bad.message };
  }
  if (options['trustedText'] !== undefined) return stringList(options['trustedText'], '/trustedText', 'trusted texts (the user\'s prompt and messages)');
  return null;
}
