import type { Knex } from 'knex';
import { hashPassword, passwordProblem } from './passwords.ts';
import { canonicalRole } from './roles.ts';

export class DuplicateUserError extends Error {
  constructor(public field: 'email' | 'username') {
    super(field === 'email' ? 'An account with this email already exists' : 'This username is already taken');
  }
}

export function slugify(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'user'
  );
}

/** A slug not used yet: base, base-2, base-3… */
export async function uniqueSlug(knex: Knex, table: string, base: string, exceptId?: number): Promise<string> {
  const root = slugify(base);
  const taken = new Set<string>(
    await knex(table)
      .where('slug', root)
      .orWhere('slug', 'like', `${root}-%`)
      .modify((q) => {
        if (exceptId) q.whereNot('id', exceptId);
      })
      .pluck('slug'),
  );
  if (!taken.has(root)) return root;
  for (let i = 2; ; i++) if (!taken.has(`${root}-${i}`)) return `${root}-${i}`;
}

export class PasswordRejectedError extends Error {}

export interface NewUser {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  password: string;
  role?: string;
}

export async function createUser(knex: Knex, u: NewUser) {
  const role = u.role ? canonicalRole(u.role) : 'Traveler';
  if (!role) throw new Error(`Unknown role '${u.role}': use Traveler, Ambassador, Museum Manager or Admin`);
  const problem = passwordProblem(u.password, { username: u.username, email: u.email });
  if (problem) throw new PasswordRejectedError(problem);
  const clash = await knex('users').where('email', u.email).orWhere('username', u.username).first('email', 'username');
  if (clash) throw new DuplicateUserError(String(clash.email).toLowerCase() === u.email.toLowerCase() ? 'email' : 'username');
  const password_hash = await hashPassword(u.password);
  for (let attempt = 0; ; attempt++) {
    const slug = await uniqueSlug(knex, 'users', u.username);
    try {
      const [row] = await knex('users')
        .insert({ email: u.email, username: u.username, first_name: u.firstName, last_name: u.lastName, password_hash, role, slug })
        .returning('*');
      return row;
    } catch (e: any) {
      if (e?.code !== '23505') throw e;
      const c = String(e.constraint ?? e.detail ?? '');
      if (c.includes('email')) throw new DuplicateUserError('email');
      if (c.includes('username')) throw new DuplicateUserError('username');
      if (attempt > 5) throw e; // slug race: try the next free slug
    }
  }
}
