/**
 * @username mentions in insights and comments: resolved by accounts (AccountsApi.resolveMentions,
 * the same rule for every plugin that stores mentions) when the text is written, stored with it.
 */
import type { Knex } from 'knex';
import type { AccountsApi, Mention } from '../../accounts/public.ts';
import { storedMentionList } from '../../../core/threads.ts';

export type { Mention };

export function resolveMentions(_knex: Knex, accounts: AccountsApi, author: { id: number; role: string }, text: string): Promise<Mention[]> {
  return accounts.resolveMentions(author, text);
}

/** The stored list as read from a row (jsonb comes back parsed on pg, maybe as text elsewhere). */
export function storedMentions(v: unknown): Mention[] {
  return storedMentionList<Mention>(v);
}
