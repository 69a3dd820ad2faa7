/**
 * Without @opentelemetry/api installed, or with it but no tracer provider registered, a call
 * records nothing and hands no trace context downstream — and still runs.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./fixtures/traced-call.ts', import.meta.url));
const HIDE = fileURLToPath(new URL('./fixtures/hide-otel.mjs', import.meta.url));
const PROVIDER = fileURLToPath(new URL('./fixtures/register-provider.mjs', import.meta.url));

function run(nodeArgs: readonly string[]): { status: string; traceparent: string | null } {
  const r = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', CHILD], { encoding: 'utf8', timeout: 60_000 });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  expect(line, r.stderr).not.toBe('');
  return JSON.parse(line) as { status: string; traceparent: string | null };
}

describe('telemetry when nothing listens', () => {
  it('emits nothing when @opentelemetry/api is not installed', () => {
    // A provider is registered (through its own import), but the executor cannot load the API.
    expect(run(['--import', HIDE, '--import', PROVIDER])).toEqual({ status: 'succeeded', traceparent: null });
  });

  it('emits nothing when no tracer provider is registered', () => {
    expect(run([])).toEqual({ status: 'succeeded', traceparent: null });
  });

  it('does emit once a provider records (the two checks above can fail)', () => {
    expect(run(['--import', PROVIDER]).traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/u);
  });
});
