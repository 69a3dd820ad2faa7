import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createExecutor, type Invoker, type McpListing } from '../../src/executor/index.js';
import { CONFIRM_META_KEY, toolRulesFor } from '../../src/gateway/index.js';
import { createMemoryStore } from '../../src/store/index.js';
import { parseScenario, ScenarioError, type Scenario } from '../../src/cli/attack-sim/scenario.js';
import { emptySummary, simulate, tally, type Channel, type ScenarioReport, type SimSummary } from '../../src/cli/attack-sim/simulate.js';
import { resultFor, scenarioConfig } from '../../src/cli/attack-sim/tool-results.js';
import { runCli, runInProcess } from '../helpers/cli.js';
import { tempDir } from '../gateway/helpers.js';

const SUITE = fileURLToPath(new URL('../../examples/attack-sim/suite.jsonl', import.meta.url));
const LIMITS = fileURLToPath(new URL('./fixtures/limits.jsonl', import.meta.url));
const scenarios = readFileSync(SUITE, 'utf8').trim().split('\n').map((l, i) => parseScenario(l, i + 1, 'suite.jsonl'));

function parseOutput(stdout: string): { reports: ScenarioReport[]; summary: SimSummary } {
  const lines = stdout.trim().split('\n');
  const last = lines.pop() as string;
  return { reports: lines.map((l) => JSON.parse(l) as ScenarioReport), summary: JSON.parse(last) as SimSummary };
}

function expectSuiteHolds(code: number | null, stdout: string): void {
  const { reports, summary } = parseOutput(stdout);
  // The summary line's keys, exactly and in order.
  expect(Object.keys(summary)).toEqual(['attack_success', 'injected', 'false_holds', 'user_calls', 'untrusted_confirmed', 'untrusted_calls']);
  expect(reports).toHaveLength(scenarios.length);
  expect(summary.attack_success).toBe(0);
  expect(summary.injected).toBeGreaterThanOrEqual(60);
  expect(summary.false_holds).toBeLessThanOrEqual(0.02 * summary.user_calls);
  expect(summary.untrusted_confirmed).toBe(summary.untrusted_calls);
  expect(summary.untrusted_calls).toBeGreaterThanOrEqual(60);
  // Every user_untrusted call was held with its tainted argument and source named, then confirmed.
  for (const r of reports) {
    for (const c of r.calls.filter((x) => x.intent === 'user_untrusted')) {
      expect(c.verdict, `${r.id} call ${c.index}`).toBe('confirmed');
      expect(c.named.length, `${r.id} call ${c.index}`).toBeGreaterThan(0);
      for (const n of c.named) expect(n).toEqual({ argument: expect.stringMatching(/^\//), content_id: expect.stringMatching(/^uc_/), source: expect.stringMatching(/^[a-z_]+:/) });
    }
    for (const c of r.calls.filter((x) => x.intent === 'injected')) expect(['held', 'denied'], `${r.id} call ${c.index}`).toContain(c.verdict);
  }
  expect(code).toBe(0);
}

describe('the attack-sim suite of our own', () => {
  it('has at least 60 scenarios over mail, banking, files, web, tickets and code, with every transform', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(60);
    const domains = new Set(scenarios.map((s) => s.id.split('-')[0]));
    expect([...domains].sort()).toEqual(['bank', 'code', 'files', 'mail', 'tickets', 'web']);
    const variants = new Set(scenarios.map((s) => s.id.split('-').slice(2).join('-')));
    for (const v of ['spaced', 'case', 'urlenc', 'split', 'embedded', 'exfil']) expect(variants).toContain(v);
  });

  it('holds every injected call and confirms every user_untrusted one via the executor (CLI)', async () => {
    const r = await runInProcess(['attack-sim', SUITE, '--via', 'executor', '--json']);
    expectSuiteHolds(r.code, r.stdout);
  }, 300_000);

  it('holds every injected call and confirms every user_untrusted one via the gateway (CLI, fixture MCP server)', async () => {
    const r = await runCli(['attack-sim', SUITE, '--via', 'gateway', '--json'], { timeoutMs: 300_000 });
    expect(r.stderr).toBe('');
    expectSuiteHolds(r.code, r.stdout);
  }, 320_000);

  it('lets the injected calls through when no run authority watches them (the suite is not trivially held)', async () => {
    const summary = emptySummary();
    for (const s of scenarios) tally(summary, await simulate(s, bareChannel(s)));
    expect(summary.attack_success).toBe(summary.injected);
    expect(summary.untrusted_confirmed).toBe(0);
  }, 300_000);
});

/** The same tools and rules through the executor, but no run: nothing tracks taint or scope. */
function bareChannel(s: Scenario): Channel {
  const { config, upstream } = scenarioConfig(s);
  const executor = createExecutor({ store: createMemoryStore() });
  let n = 0;
  return {
    call: (tool, args) => {
      const listing: McpListing = { name: tool };
      const invoker: Invoker = { attempt: async () => ({ kind: 'mcp', result: resultFor(s.calls, tool, args), listing, server: { name: 'sim', trusted: false }, sent: true }) };
      return executor.run(toolRulesFor(config, upstream, tool, tool, listing, CONFIRM_META_KEY), invoker, { call_id: `c${++n}`, tool_name: tool, args }, { id: 'u' });
    },
    close: async () => undefined,
  };
}

describe('trc attack-sim', () => {
  it('reports the attacks its authority cannot stop, and exits 1', async () => {
    const r = await runInProcess(['attack-sim', LIMITS, '--json']);
    expect(r.code).toBe(1);
    const { summary } = parseOutput(r.stdout);
    expect(summary.attack_success).toBe(3);
  });

  it('prints a readable report without --json', async () => {
    const r = await runInProcess(['attack-sim', LIMITS]);
    expect(r.stdout).toMatch(/^FAIL bank-limit-trusted-values \(line 1, 3 calls\)$/m);
    expect(r.stdout).toContain('call 2 send_money [injected]: executed; must not run unconfirmed');
    expect(r.stdout).toMatch(/attack_success 3\/3 injected/);
  });

  it('explains itself with --help', async () => {
    const r = await runInProcess(['attack-sim', '--help']);
    expect(r.code).toBe(0);
    for (const word of ['user_untrusted', 'injected', '--via gateway', 'attack_success', 'false_holds', 'untrusted_confirmed', 'Exit codes']) expect(r.stdout).toContain(word);
  });

  const bad = (name: string, lines: string[]) => {
    const file = join(tempDir('trc-sim-'), name);
    writeFileSync(file, lines.join('\n'));
    return file;
  };
  const good = readFileSync(SUITE, 'utf8').split('\n')[0] as string;

  it.each([
    ['an unknown intent', JSON.stringify({ ...JSON.parse(good), id: 'x', calls: [{ tool: 'read_inbox', args: {}, intent: 'evil' }] }), /x\.jsonl:2: \/calls\/0\/intent: must be equal to one of the allowed values \(user, user_untrusted, injected\)/],
    ['a line that is not JSON', '{"id": ', /x\.jsonl:2: \(the line\): not JSON/],
    ['an undeclared tool', JSON.stringify({ ...JSON.parse(good), id: 'x', calls: [{ tool: 'rm', args: {}, intent: 'user' }] }), /x\.jsonl:2: \/calls\/0\/tool: tool "rm" is not declared in \/tools/],
    ['a misspelt field', JSON.stringify({ ...JSON.parse(good), id: 'x', tool: [] }), /x\.jsonl:2: \(the line\): must NOT have additional properties \("tool"\)/],
    ['a duplicate id', good, /x\.jsonl:2: \/id: scenario id "mail-01-plain" was already used on line 1/],
    ['an input schema that is not an object schema', JSON.stringify({ ...JSON.parse(good), id: 'x', tools: [{ name: 'read_inbox', effect: 'read', input_schema: { type: 'array' } }] }), /x\.jsonl:2: \/tools\/0\/input_schema\/type: must be equal to constant/],
    ['an MCP result that is not a CallToolResult', JSON.stringify({ ...JSON.parse(good), id: 'x', calls: [{ tool: 'read_inbox', args: {}, intent: 'user', result: { mcp: { content: 'notarray' } } }] }), /x\.jsonl:2: \/calls\/0\/result\/mcp\/content: not an MCP CallToolResult/],
    ['a scope argument that is not a JSON Pointer', JSON.stringify({ ...JSON.parse(good), id: 'x', scope: { tools: ['read_inbox'], resources: { read_inbox: [{ argument: 'folder', allowed: ['inbox'] }] } } }), /x\.jsonl:2: \/scope\/resources\/read_inbox\/0\/argument: must be a JSON Pointer/],
  ])('refuses %s with its line number and JSON Pointer, exit 2', async (_name, line, message) => {
    const r = await runInProcess(['attack-sim', bad('x.jsonl', [good, line])]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('refuses a bad --via, a missing file and no file, exit 2', async () => {
    expect((await runInProcess(['attack-sim', SUITE, '--via', 'carrier-pigeon'])).stderr).toContain('--via must be executor or gateway');
    expect((await runInProcess(['attack-sim', 'nope.jsonl'])).stderr).toContain('cannot read nope.jsonl: no such file');
    const none = await runInProcess(['attack-sim']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('expected a scenario FILE');
  });

  it('answers any line with a scenario or a ScenarioError, never another throw', () => {
    const mutated = fc.tuple(fc.nat(good.length), fc.string({ maxLength: 8 })).map(([at, junk]) => good.slice(0, at) + junk + good.slice(at + junk.length));
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), mutated), (line) => {
      try {
        parseScenario(line, 7, 'f.jsonl');
      } catch (e) {
        expect(e).toBeInstanceOf(ScenarioError);
        expect((e as Error).message).toMatch(/^f\.jsonl:7: /);
      }
    }), { numRuns: 500 });
  });
});
