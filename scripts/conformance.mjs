#!/usr/bin/env node
/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios) run
 * against our own fixture server (test/conformance/fixtures/conformance-server.mjs) directly
 * and through `trc gateway`, with a stdio upstream and with a URL upstream. Fails unless the
 * gateway passes exactly the checks the direct server passes, scenario by scenario.
 *
 * The suite needs Node ≥ 22; CI takes it from the `node` package on npm, installed with the
 * suite into a scratch folder (CONFORMANCE_DIR, default node_modules/.cache/trc-conformance).
 *
 *   node scripts/conformance.mjs            # all setups, spec 2025-11-25 (cumulative: 2025-06-18 too)
 *   CONFORMANCE_SCENARIO=ping CONFORMANCE_SETUPS=direct,stdio node scripts/conformance.mjs
 *
 * The suite has no 2026-07-28 server scenarios (version 0.1.16 lists 2025-06-18 and
 * 2025-11-25 only); that generation is checked by test/gateway/protocol-generations.test.ts.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE_VERSION = '0.1.16';
const NODE_VERSION = '22';
const SPEC = '2025-11-25';
const root = fileURLToPath(new URL('../', import.meta.url));
const fixture = join(root, 'test/conformance/fixtures/conformance-server.mjs');
const dir = process.env.CONFORMANCE_DIR ?? join(root, 'node_modules/.cache/trc-conformance');
const suite = join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const node22 = join(dir, 'node_modules/node/bin/node');

if (!existsSync(suite) || !existsSync(node22)) {
  console.log(`installing node@${NODE_VERSION} and @modelcontextprotocol/conformance@${SUITE_VERSION} into ${dir}`);
  execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `node@${NODE_VERSION}`, `@modelcontextprotocol/conformance@${SUITE_VERSION}`], { stdio: 'inherit' });
}

const compiled = join(root, 'dist/cli/bin.js');
const trc = existsSync(compiled) ? [process.execPath, compiled] : [process.execPath, '--import', 'tsx', join(root, 'src/cli/bin.ts')];
const work = mkdtempSync(join(tmpdir(), 'trc-conformance-'));
const children = [];

/** Start a process and resolve with the first line matching `pattern` on stdout or stderr. */
function startAndWait(argv, pattern, name) {
  const [cmd, ...args] = argv;
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: work });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${seen}`)), 60_000);
    const onData = (chunk) => {
      seen += chunk.toString();
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready:\n${seen}`)));
  });
}

const URL_LINE = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/;
const gatewayConfig = (upstream) => {
  const path = join(work, `gateway-${children.length}.yaml`);
  writeFileSync(path, `upstreams:\n${upstream}\n`);
  return path;
};

const setups = {
  direct: async () => startAndWait([process.execPath, fixture, '--http', '0'], URL_LINE, 'fixture server'),
  'gateway, stdio upstream': async () =>
    startAndWait([...trc, 'gateway', '--http', '0', '--store', join(work, 'stdio.sqlite'), '--name', 'conformance', '--', process.execPath, fixture], URL_LINE, 'trc gateway'),
  'gateway, URL upstream': async () => {
    const upstream = await startAndWait([process.execPath, fixture, '--http', '0'], URL_LINE, 'fixture server');
    const config = gatewayConfig(`  - name: conformance\n    url: ${upstream}`);
    return startAndWait([...trc, 'gateway', '--http', '0', '--store', join(work, 'url.sqlite'), '--config', config], URL_LINE, 'trc gateway');
  },
};

/** Run the suite against `url`; per scenario, how many checks succeeded and failed. */
function runSuite(url, label) {
  const out = join(work, label.replace(/\W+/g, '-'));
  // "all" includes the scenarios the suite still calls pending (JSON Schema 2020-12, SSE polling).
  const args = [suite, 'server', '--url', url, '--spec-version', SPEC, '--suite', process.env.CONFORMANCE_SUITE ?? 'all', '-o', out];
  if (process.env.CONFORMANCE_SCENARIO) args.push('--scenario', process.env.CONFORMANCE_SCENARIO);
  return new Promise((resolve) => {
    const child = spawn(node22, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: work });
    let log = '';
    child.stdout.on('data', (c) => (log += c));
    child.stderr.on('data', (c) => (log += c));
    child.once('exit', () => resolve({ results: readChecks(out), log }));
  });
}

function readChecks(out) {
  const results = new Map();
  const walk = (d) => {
    for (const name of existsSync(d) ? readdirSync(d) : []) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'checks.json') {
        const scenario = d.slice(out.length + 1).replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
        const checks = JSON.parse(readFileSync(p, 'utf8'));
        results.set(scenario, {
          passed: checks.filter((c) => c.status === 'SUCCESS').length,
          failed: checks.filter((c) => c.status === 'FAILURE').length,
          warnings: checks.filter((c) => c.status === 'WARNING').length,
          failures: checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`.slice(0, 300)),
        });
      }
    }
  };
  walk(out);
  return results;
}

const started = Date.now();
const all = {};
try {
  const only = process.env.CONFORMANCE_SETUPS?.split(',');
  for (const [label, start] of Object.entries(setups)) {
    if (only !== undefined && !only.some((o) => label.includes(o))) continue;
    const url = await start();
    const { results, log } = await runSuite(url, label);
    if (results.size === 0) {
      console.log(log);
      throw new Error(`the suite produced no results for "${label}"`);
    }
    all[label] = results;
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
}

const labels = Object.keys(all);
const scenarios = [...new Set(labels.flatMap((l) => [...all[l].keys()]))].sort();
const total = (l) => [...all[l].values()].reduce((n, r) => n + r.passed, 0);
const checks = (l) => [...all[l].values()].reduce((n, r) => n + r.passed + r.failed, 0);
console.log(`MCP conformance ${SUITE_VERSION}, server scenarios, spec ${SPEC} (cumulative), node ${execFileSync(node22, ['--version']).toString().trim()} for the suite`);
console.log(`${'scenario'.padEnd(34)}${labels.map((l) => l.padStart(26)).join('')}`);
const mismatches = [];
for (const s of scenarios) {
  const cells = labels.map((l) => {
    const r = all[l].get(s);
    return (r === undefined ? 'missing' : `${r.passed}/${r.passed + r.failed}${r.warnings > 0 ? ` (${r.warnings} warn)` : ''}`).padStart(26);
  });
  console.log(`${s.padEnd(34)}${cells.join('')}`);
  const direct = all.direct?.get(s);
  for (const l of labels.slice(1)) {
    const r = all[l].get(s);
    // Same successes, and no warning the direct server does not get either.
    if (r === undefined || direct === undefined || r.passed !== direct.passed || r.warnings > direct.warnings) mismatches.push({ scenario: s, setup: l, failures: r?.failures ?? ['no result'] });
  }
}
console.log(`${'total passed'.padEnd(34)}${labels.map((l) => `${total(l)}/${checks(l)}`.padStart(26)).join('')}`);
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
if (mismatches.length > 0) {
  console.log('\nThe gateway must pass exactly what the server passes directly. Differences:');
  for (const m of mismatches) console.log(`- ${m.scenario} (${m.setup}): ${m.failures.join('; ')}`);
  process.exit(1);
}
console.log('The gateway passes exactly what the server passes directly.');
