import type { Conversation, Message } from '../../../web/src/api/generated/messages.ts';
import type { UserSummary } from '../../../web/src/api/generated/shared.ts';

export type { Conversation, Message, UserSummary };
export const UNREAD_KEY = '/api/conversations/unread-count';
export const MAX_TEXT = 2000;
export const MAX_IMAGES = 4;

export function personName(u: Pick<UserSummary, 'firstName' | 'lastName' | 'username'>): string {
  return [u.firstName, u.lastName].filter(Boolean).join(' ').trim() || u.username;
}

export function conversationTitle(c: Pick<Conversation, 'participants'>, fallback: string): string {
  if (!c.participants.length) return fallback;
  return c.participants.map(personName).join(', ');
}
