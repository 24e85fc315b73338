/**
 * @username mentions (insights, community and group posts, and their comments), resolved once when
 * the text is written and stored with it by the plugin that owns the text (a jsonb list of ranges),
 * never re-parsed when read. Other plugins call AccountsApi.resolveMentions.
 *
 * A mention becomes a link (and a notification) only when the mentioned member may be reached by
 * the author: accounts' one rule (AccountsApi.sql.canView, the author as viewer, applied in the
 * same statement that finds the usernames, so blocks either way count once accounts states them),
 * and the member's own "Allow tagging" preference. Anything else stays plain text.
 */
import type { Knex } from 'knex';
import type { AccountsApi, Mention } from '../public.ts';

export type { Mention };

/** At most this many different people are looked up per text. */
export const MAX_MENTIONS = 20;

/** "@name" not preceded by a name character or another "@" (so e-mail addresses are no mentions). */
const MENTION = /(^|[^A-Za-z0-9_.@-])@([A-Za-z0-9_.-]{3,30})/g;

export interface Candidate {
  start: number;
  /** the name as written, and without trailing dots/dashes (sentence punctuation) */
  names: string[];
}

export function findCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(MENTION)) {
    const start = (m.index ?? 0) + m[1].length;
    const name = m[2];
    const trimmed = name.replace(/[.-]+$/, '');
    out.push({ start, names: trimmed !== name && trimmed.length >= 3 ? [name, trimmed] : [name] });
  }
  return out;
}

export async function resolveMentions(
  knex: Knex,
  accounts: Pick<AccountsApi, 'sql'>,
  author: { id: number; role: string },
  text: string,
): Promise<Mention[]> {
  const candidates = findCandidates(text);
  if (!candidates.length) return [];
  const wanted = [...new Set(candidates.flatMap((c) => c.names.map((n) => n.toLowerCase())))].slice(0, MAX_MENTIONS * 2);
  const canView = accounts.sql.canView(author, 'users.id').toSQL();
  // the names, the rule and each member's "Allow tagging" in one statement
  const rows = (await knex('users')
    .whereRaw('lower(users.username) = any(?::text[])', [wanted])
    .whereRaw(canView.sql, canView.bindings as any[])
    .select('users.id', 'users.username', { allows: accounts.sql.allowsTagging('users.id') })) as Array<{ id: number; username: string; allows: boolean }>;
  if (!rows.length) return [];
  const byName = new Map<string, { id: number; username: string }>();
  for (const r of rows) {
    // Tagging yourself is always allowed; others decide with "Allow tagging" (absent preferences: on).
    if (r.id !== author.id && r.allows === false) continue;
    byName.set(r.username.toLowerCase(), r);
  }
  const out: Mention[] = [];
  const people = new Set<number>();
  for (const c of candidates) {
    const name = c.names.find((n) => byName.has(n.toLowerCase()));
    if (!name) continue;
    const u = byName.get(name.toLowerCase())!;
    if (!people.has(u.id) && people.size >= MAX_MENTIONS) continue;
    people.add(u.id);
    out.push({ userId: u.id, username: u.username, start: c.start, length: name.length + 1 });
  }
  return out;
}

/** The stored list as read from a row (jsonb comes back parsed on pg, maybe as text elsewhere). */
export function storedMentions(v: unknown): Mention[] {
  const list = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(list) ? list : [];
}
