/**
 * `--host` of the commands that listen: an IPv4 or IPv6 literal (bracketed or not, as in URLs:
 * `[::1]` and `::1` are the same host) or a host name. Node's `listen()` wants IPv6 without
 * brackets and reports a bracketed one as an unknown host name.
 */
import { isIP } from 'node:net';
import { UsageError } from './io.js';

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/iu;

/**
 * The host to listen on, as `listen()` takes it.
 * @example parseHost('[::1]') // '::1'
 */
export function parseHost(text: string, flag = '--host'): string {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) === 6) return bare;
  if (bare === text && (isIP(bare) === 4 || HOST_NAME.test(bare))) return bare;
  throw new UsageError(`${flag} needs an IP address (127.0.0.1, ::1 or [::1]) or a host name, got "${text}"`);
}

/** Errors `listen()` reports for a host or port it cannot use, as one line each. */
export function describeListenError(error: unknown, host: string, port: number): string | null {
  const e = error as NodeJS.ErrnoException;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: this machine has no such address`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name does not resolve`;
    case 'EAFNOSUPPORT':
      return `cannot listen on ${where}: the address family is not supported here (no IPv6?)`;
    default:
      return null;
  }
}
