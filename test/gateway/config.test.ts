/**
 * The gateway configuration: validated with Ajv before the gateway starts; every problem names
 * its JSON Pointer and line in the file; MCP annotations only count for trusted upstreams.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isTrcError } from '../../src/contract/index.js';
import { loadGatewayConfig, parseGatewayConfig, toolRulesFor, upstreamFromCommand, type ConfigProblem } from '../../src/gateway/index.js';
import { runCli } from '../helpers/cli.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function problems(fn: () => unknown): ConfigProblem[] {
  try {
    fn();
  } catch (error) {
    if (isTrcError(error, 'GATEWAY_CONFIG_INVALID')) return (error.data?.['problems'] ?? []) as ConfigProblem[];
    throw error;
  }
  throw new Error('expected GATEWAY_CONFIG_INVALID');
}

describe('gateway configuration', () => {
  it('loads a valid JSON configuration', () => {
    const config = loadGatewayConfig(fixture('good-config.json'));
    expect(config.upstreams?.map((u) => u.name)).toEqual(['fs', 'remote']);
  });

  it('names the pointer and line of every problem in a bad YAML file', () => {
    const found = problems(() => loadGatewayConfig(fixture('bad-config.yaml')));
    const at = (pointer: string) => found.find((p) => p.pointer === pointer);
    expect(at('/upstreams/0/tools/write_file/effect')).toMatchObject({ line: 6 });
    expect(at('/upstreams/0/tools/write_file/effect')?.message).toMatch(/read, write/);
    expect(at('/upstreams/0/tools/write_file/budget/max_bytes')).toMatchObject({ line: 8 });
    expect(at('/upstreams/1')?.message).toMatch(/unknown_key|command|url/);
    expect(at('/upstreams/1/url')).toMatchObject({ line: 10 });
  });

  it('takes detector rules to ignore per tool, and refuses a name no rule has with its pointer, line and the nearest id', () => {
    const good = parseGatewayConfig('upstreams:\n  - name: helpdesk\n    command: x\n    tools:\n      conversation:\n        ignore_detector_rules: [role.turn, role.turns]\n');
    const rules = toolRulesFor(good, good.upstreams?.[0] ?? { name: 'helpdesk' }, 'conversation', 'conversation', undefined, 'k');
    expect(rules.ignoreDetectorRules).toEqual(['role.turn', 'role.turns']);
    const found = problems(() => parseGatewayConfig('defaults:\n  ignore_detector_rules: [role.]\nupstreams:\n  - name: helpdesk\n    command: x\n    tools:\n      conversation:\n        ignore_detector_rules:\n          - role.turn\n          - role.turnz\n'));
    expect(found).toEqual([{ pointer: '/upstreams/0/tools/conversation/ignore_detector_rules/1', line: 10, message: expect.stringMatching(/"role\.turnz" names no detector rule; did you mean "role\.turns?"/) }]);
  });

  it('takes an audit retention in whole days, and refuses anything else with its pointer', () => {
    expect(parseGatewayConfig('audit_retention_days: 90\n').audit_retention_days).toBe(90);
    for (const bad of ['0', '1.5', '"90d"']) {
      expect(problems(() => parseGatewayConfig(`audit_retention_days: ${bad}\n`)).map((p) => p.pointer)).toEqual(['/audit_retention_days']);
    }
  });

  it('reports duplicate upstream names', () => {
    const found = problems(() => parseGatewayConfig('upstreams:\n  - { name: a, command: x }\n  - { name: a, command: y }\n'));
    expect(found).toEqual([{ pointer: '/upstreams/1/name', line: 3, message: 'duplicate upstream name "a"' }]);
  });

  it('reports YAML syntax errors with their line', () => {
    const found = problems(() => parseGatewayConfig('upstreams:\n  - name: [unclosed\n'));
    expect(found[0]?.line).not.toBeNull();
  });

  it('refuses to start the gateway on a bad file and prints where the problems are', async () => {
    const run = await runCli(['gateway', '--config', fixture('bad-config.yaml'), '--store', ':memory:', '--', 'node', '-e', '']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bad-config.yaml:6 at /upstreams/0/tools/write_file/effect');
    expect(run.stdout).toBe('');
  });

  it('takes an untrusted upstream\'s readOnlyHint as a hint, ignores its other annotations, and honours them all for a trusted one', () => {
    const listing = { name: 't', annotations: { readOnlyHint: true, idempotentHint: true } };
    expect(toolRulesFor({}, { name: 'u', command: 'x' }, 't', 't', listing, 'k')).toMatchObject({ effect: 'read', effectSource: 'hint', idempotent: true });
    const writes = { name: 'w', annotations: { readOnlyHint: false, idempotentHint: true } };
    expect(toolRulesFor({}, { name: 'u', command: 'x' }, 'w', 'w', writes, 'k')).toMatchObject({ effect: 'write', effectSource: 'default', idempotent: false });
    expect(toolRulesFor({}, { name: 'u', command: 'x', annotations: 'ignore' }, 't', 't', listing, 'k')).toMatchObject({ effect: 'write', effectSource: 'default', idempotent: false });
    expect(toolRulesFor({}, { name: 'u', command: 'x', trusted: true }, 't', 't', listing, 'k')).toMatchObject({ effect: 'read', effectSource: 'annotation', idempotent: true });
    const configured = toolRulesFor({ defaults: { timeout_ms: 5 } }, { name: 'u', command: 'x', trusted: true, tools: { t: { effect: 'write' } } }, 't', 't', listing, 'k');
    expect(configured).toMatchObject({ effect: 'write', effectSource: 'declared', timeoutMs: 5 });
  });

  it('turns "-- CMD ARGS" into the first upstream, named after the server', () => {
    const config = upstreamFromCommand({}, ['npx', '-y', '@modelcontextprotocol/server-memory']);
    expect(config.upstreams?.[0]).toEqual({ name: 'server-memory', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
    expect(upstreamFromCommand({}, ['node', '/x/server-everything/dist/index.js', 'stdio']).upstreams?.[0]?.name).toBe('server-everything');
  });

  it('attaches a config entry that names no command, and the flags, to the "-- CMD" upstream', () => {
    const config = parseGatewayConfig('upstreams:\n  - name: mem\n    defaults: { effect: read }\n    tools: { create_entities: { effect: write } }\n  - name: other\n    command: node\n');
    const merged = upstreamFromCommand(config, ['npx', 'server-memory'], undefined, { annotations: 'ignore' });
    expect(merged.upstreams?.map((u) => u.name)).toEqual(['mem', 'other']);
    expect(merged.upstreams?.[0]).toMatchObject({ name: 'mem', command: 'npx', args: ['server-memory'], annotations: 'ignore', defaults: { effect: 'read' }, tools: { create_entities: { effect: 'write' } } });
    expect(() => upstreamFromCommand(config, [])).toThrow(/names no "command" or "url"/);
    expect(() => parseGatewayConfig('upstreams:\n  - name: a\n  - name: b\n')).toThrow(/only one upstream may name no/);
    expect(() => parseGatewayConfig('upstreams:\n  - name: a\n    command: x\n    url: http://h/\n')).toThrow(/not both/);
  });

  it('refuses an upstream name holding the namespace separator', () => {
    expect(() => parseGatewayConfig('upstreams:\n  - name: pay__x\n    command: node\n')).toThrow(/contains "__"/);
    expect(() => upstreamFromCommand({}, ['node', 'x.js'], 'a__b')).toThrow(/contains "__"/);
  });
});
