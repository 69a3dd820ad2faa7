import { randomBytes } from 'node:crypto';

/** A fresh resource id: 128 random bits, base64url (never derived from content or caller). */
export function newResourceId(): string {
  return randomBytes(16).toString('base64url');
}
