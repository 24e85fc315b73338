import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's recommended parameters: m = 19 MiB, t = 2, p = 1. */
export const ARGON2_OPTIONS = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * Accounts nobody may sign in to (the sample members of the seed) store '!' followed by random
 * characters instead of a hash: no password verifies against it. The '!' cannot start an argon2
 * PHC string ('$argon2id$…'), so it never collides with a real hash.
 */
export const UNUSABLE_PREFIX = '!';

export function unusablePasswordHash(): string {
  return UNUSABLE_PREFIX + crypto.randomBytes(32).toString('base64url');
}

export function isUnusableHash(stored: string): boolean {
  return typeof stored !== 'string' || stored.startsWith(UNUSABLE_PREFIX) || !stored.startsWith('$');
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (isUnusableHash(stored)) {
    // The same work as a real check, so the answer's timing does not tell such accounts apart.
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// A real hash to verify against when the email is unknown, so both failures take the same time.
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('curio-timing-equaliser-not-a-password');
  return dummy;
}

// ---- common passwords ----

let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  if (!common) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt');
    common = new Set(
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim().toLowerCase())
        .filter((l) => l && !l.startsWith('#')),
    );
  }
  return common;
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less common password.';
export const PASSWORD_MIN_MESSAGE = 'Password must be at least 6 characters long.';

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/** The rules a new password must meet beyond the schema's length: null when acceptable. */
export function passwordProblem(password: string, ctx: { username?: string; email?: string } = {}): string | null {
  if (password.length < 6) return PASSWORD_MIN_MESSAGE;
  if (isCommonPassword(password)) return COMMON_PASSWORD_MESSAGE;
  const p = password.trim().toLowerCase();
  if ((ctx.username && p === ctx.username.toLowerCase()) || (ctx.email && (p === ctx.email.toLowerCase() || p === ctx.email.split('@')[0].toLowerCase()))) {
    return 'Your password must not be your username or email.';
  }
  return null;
}
