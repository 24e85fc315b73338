import { hash, verify } from '@node-rs/argon2';

/** argon2id at OWASP's recommended parameters: m = 19 MiB, t = 2, p = 1. */
export const ARGON2_OPTIONS = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
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
