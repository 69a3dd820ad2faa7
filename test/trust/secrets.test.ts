import { describe, expect, it } from 'vitest';
import { LINEAR_BOUND_10X, growth } from '../helpers/cpu-time.js';
import { findSecrets, maskSecrets } from '../../src/trust/index.js';

// Built at run time so no real-looking key sits in the repository as one literal.
const k = (...parts: string[]): string => parts.join('');

describe('secrets detection', () => {
  it.each([
    ['openai_api_key', k('sk-proj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')],
    ['openai_api_key', k('sk-', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8')],
    ['anthropic_api_key', k('sk-ant-api03-', 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-abc_DEF')],
    ['github_token', k('ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')],
    ['slack_token', k('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKlMnOp')],
    ['stripe_key', k('sk_live_', '51HxYzAbCdEfGhIjKlMnOpQr')],
    ['aws_access_key_id', k('AKIA', 'IOSFODNN7EXAMPLE')],
    ['jwt', k('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')],
    ['google_api_key', k('AIza', 'SyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tU1v')],
  ])('finds a %s', (kind, secret) => {
    const text = `config: ${secret}. end`;
    const found = findSecrets(text);
    expect(found.map((f) => f.kind)).toEqual([kind]);
    expect(text.slice(found[0]?.start, found[0]?.end)).toBe(secret);
    expect(maskSecrets(text).text).toBe(`config: [redacted:${kind}]. end`);
  });

  it('masks a PEM private key block whole', () => {
    const pem = k('-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc\n-----END ', 'RSA PRIVATE KEY-----');
    expect(maskSecrets(`key:\n${pem}\nrest`).text).toBe('key:\n[redacted:private_key]\nrest');
  });

  it('masks an AWS secret access key only when the text names one', () => {
    const secret = k('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');
    expect(findSecrets(`aws_secret_access_key = ${secret}`).map((f) => f.kind)).toEqual(['aws_secret_access_key']);
    expect(findSecrets(`checksum ${secret}`)).toEqual([]);
  });

  it.each([
    'order 1234567890123456 shipped',
    'see https://example.com/docs/getting-started-with-the-api',
    'the task-list item was re-opened by someone',
    'sk-short',
    'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  ])('leaves ordinary text alone: %j', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('secrets recognized by their place', () => {
  it.each([
    ['an env assignment', `OPENAI_API_KEY=${k('sk-proj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')}`, `OPENAI_API_KEY=[redacted:openai_api_key]`],
    ['a named value that matches no pattern', 'export DB_PASSWORD=hunter22', 'export DB_PASSWORD=[redacted:named_secret]'],
    ['a query key', 'GET /v1/x?api_key=abcd1234efgh&limit=5', 'GET /v1/x?api_key=[redacted:named_secret]&limit=5'],
    ['a JSON member', '{"client_secret": "s3cr3t-value", "n": 1}', '{"client_secret": "[redacted:named_secret]", "n": 1}'],
    ['a bearer header', 'Authorization: Bearer abc.def.ghi', 'Authorization: Bearer [redacted:named_secret]'],
    ['a database URL', 'postgres://admin:s3cretPw@db.internal:5432/app', 'postgres://admin:[redacted:url_password]@db.internal:5432/app'],
    ['a key split by a zero-width space', k('sk-pr\u200boj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'), '[redacted:openai_api_key]'],
    ['a key inside a pointer', `/data/${k('ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')}`, '/data/[redacted:github_token]'],
  ])('masks %s', (_what, text, masked) => {
    expect(maskSecrets(text).text).toBe(masked);
  });

  it.each([
    'max_tokens=4096 and token_count: 5',
    'PWD=/home/ada',
    'at 2026-05-01T10:00:00Z the status: shipped',
    'https://example.com:8080/path?q=1&page=2',
    'a == b and c != d',
  ])('leaves look-alikes alone: %j', (text) => {
    expect(maskSecrets(text).text).toBe(text);
  });

  it('stays linear on near-miss assignments and URLs (1 MB vs 100 kB)', () => {
    const unit = 'password= token: a=b=c=d ://x:y ://u:p@ x_api_key:';
    const fill = (n: number) => unit.repeat(Math.ceil(n / unit.length));
    expect(growth(fill, maskSecrets, 100_000, 1_000_000, 5)).toBeLessThan(LINEAR_BOUND_10X);
  });
});
