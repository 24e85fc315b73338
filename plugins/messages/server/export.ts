/**
 * This plugin's part of a member's data archive (issue 24): the messages they sent and their
 * images, and who their conversations were with. Others' messages are theirs: not included.
 */
import path from 'node:path';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService, UserData } from '../../accounts/public.ts';

const iso = (d: any) => (d ? new Date(d).toISOString() : null);

export function registerMessagesExport(ctx: PluginContext): void {
  const knex = ctx.db;
  ctx.services.get(UserData).onExport('messages', async (userId, out) => {
    const convs = await knex('messages_participants as p').join('messages_conversations as c', 'c.id', 'p.conversation_id').where('p.user_id', userId).orderBy('c.id').select('c.id', 'c.kind', 'c.created_at', 'p.status');
    const sent = await knex('messages_messages').where({ sender_id: userId }).whereNull('deleted_at').orderBy('id').select('id', 'conversation_id', 'body', 'created_at');
    if (!convs.length && !sent.length) return; // messages.json only where messages exist
    const ids = convs.map((c: any) => c.id);
    const members = ids.length ? await knex('messages_participants').whereIn('conversation_id', ids).whereNot('user_id', userId).select('conversation_id', 'user_id') : [];
    const people = await ctx.services.get(AccountsService).getUserSummaries([...new Set(members.map((m: any) => Number(m.user_id)))]);
    const images = await knex('messages_images').where({ uploader_id: userId }).orderBy('id').select('message_id', 'storage_key');
    const filesOf = new Map<number, string[]>();
    for (const i of images) {
      if (!i.message_id || !i.storage_key) continue;
      const name = await out.file(`media/messages/${i.message_id}-${path.basename(i.storage_key)}`, i.storage_key);
      if (name) filesOf.set(Number(i.message_id), [...(filesOf.get(Number(i.message_id)) ?? []), name]);
    }
    out.json(
      'messages.json',
      {
        conversations: convs.map((c: any) => ({
          id: c.id,
          kind: c.kind,
          status: c.status,
          with: members.filter((m: any) => m.conversation_id === c.id).map((m: any) => people.get(Number(m.user_id))?.username ?? 'deleted'),
          createdAt: iso(c.created_at),
        })),
        sent: sent.map((m: any) => ({ id: Number(m.id), conversationId: m.conversation_id, text: m.body, images: filesOf.get(Number(m.id)) ?? [], sentAt: iso(m.created_at) })),
      },
      'Messages you sent (with their images, in media/messages/) and who your conversations are with.',
    );
  });
}
