/** The routes of direct messages (README.md lists them); the rules live in service.ts. */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { HttpError } from '../../../core/errors.ts';
import type { ProcessedImage } from '../../../core/uploads.ts';
import type { MessagesStore } from './service.ts';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_IMAGES = 4;
export const IMAGE_TEXT = {
  none: 'Please select at least one image',
  tooLarge: 'Each image must be at most 10 MB',
  notImage: 'Only image files (PNG, JPG, GIF) can be uploaded',
};

export const RESTRICTED = 'Your account is restricted from sending messages';
/** A content restriction (admin moderation) stops sending, as it stops posting and commenting. */
function assertMaySend(user: { restricted?: boolean } | undefined): void {
  if (user?.restricted) throw new HttpError(403, RESTRICTED);
}

const idParams = { $ref: 'shared/IdParams' };
const ok = { $ref: 'shared/Ok' };
const conversation = { $ref: 'messages/Conversation' };

export function registerRoutes(ctx: PluginContext, store: MessagesStore): void {
  const routes = ctx.routes;

  /** A route on one conversation or message (:id) that answers what the store answers for the member. */
  const byId = (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    operationId: string,
    summary: string,
    response: object,
    call: (userId: number, id: number) => Promise<unknown>,
  ) => routes.add<{ id: number }>({ method, path, operationId, summary, auth: 'required', schema: { params: idParams, response }, handler: (c) => call(c.user!.id, c.input.params.id) });

  byId('GET', '/api/conversations/:id', 'getConversation', 'One of your conversations (404 for others)', conversation, store.getConversation);
  byId('POST', '/api/conversations/:id/leave', 'leaveConversation', 'Leave a conversation: it leaves your list and you no longer receive its messages', ok, store.leave);
  byId('POST', '/api/conversations/:id/accept', 'acceptConversationRequest', 'Move a conversation from Requests to the inbox', conversation, store.accept);
  byId('POST', '/api/conversations/:id/decline', 'declineConversationRequest', 'Decline a request: a direct conversation is deleted; from a group you are removed', ok, store.decline);
  byId('DELETE', '/api/messages/:id', 'deleteMessage', 'Delete one of your messages: it shows as "Message deleted"; its images are removed', ok, store.deleteMessage);

  routes.add<unknown, { folder?: 'inbox' | 'requests'; cursor?: string; limit?: number }>({
    method: 'GET',
    path: '/api/conversations',
    operationId: 'listConversations',
    summary: "The signed-in member's conversations, latest activity first (cursor-paged); folder=requests: those waiting in Requests",
    auth: 'required',
    schema: {
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          folder: { type: 'string', enum: ['inbox', 'requests'], default: 'inbox' },
          cursor: { type: 'string', maxLength: 60 },
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
      },
      response: { $ref: 'messages/ConversationPage' },
    },
    async handler(c) {
      c.set('Cache-Control', 'no-store');
      return store.list(c.user!.id, c.input.query);
    },
  });

  routes.add<unknown, unknown, { participantIds: number[]; message: { text?: string; imageIds?: number[] } }>({
    method: 'POST',
    path: '/api/conversations',
    operationId: 'createConversation',
    summary:
      'Write to one member (their direct conversation, reused when it exists) or start a group (up to 10 members with you). ' +
      "Refused (403) where accounts' rule says no (allowMessages off and they do not follow you). Lands in their Requests when they do not follow you.",
    auth: 'required',
    status: 201,
    schema: { body: { $ref: 'messages/CreateConversationBody' }, response: { 201: conversation } },
    handler: (c) => {
      assertMaySend(c.user);
      return store.create(c.user!.id, c.input.body);
    },
  });

  routes.add({
    method: 'GET',
    path: '/api/conversations/unread-count',
    operationId: 'getUnreadMessageCount',
    summary: 'Unread messages in the inbox, and how many conversations wait in Requests',
    auth: 'required',
    schema: { response: { $ref: 'messages/UnreadCount' } },
    async handler(c) {
      c.set('Cache-Control', 'no-store');
      return store.unreadCount(c.user!.id);
    },
  });

  routes.add<{ userId: number }>({
    method: 'GET',
    path: '/api/conversations/with/:userId',
    operationId: 'getContactStatus',
    summary: 'May the signed-in member message this member, and their direct conversation if there is one',
    auth: 'required',
    schema: {
      params: { type: 'object', additionalProperties: false, required: ['userId'], properties: { userId: { $ref: 'shared/Id' } } },
      response: { $ref: 'messages/ContactStatus' },
    },
    handler: (c) => store.contactStatus(c.user!.id, c.input.params.userId),
  });

  routes.add<{ id: number }, { cursor?: string; limit?: number }>({
    method: 'GET',
    path: '/api/conversations/:id/messages',
    operationId: 'listConversationMessages',
    summary: 'Messages of one of your conversations, newest first (cursor-paged to older ones)',
    auth: 'required',
    schema: {
      params: idParams,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { cursor: { type: 'string', pattern: '^[0-9]{1,18}$' }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 30 } },
      },
      response: { $ref: 'messages/MessagePage' },
    },
    async handler(c) {
      c.set('Cache-Control', 'no-store');
      return store.listMessages(c.user!.id, c.input.params.id, c.input.query);
    },
  });

  routes.add<{ id: number }, unknown, { text?: string; imageIds?: number[] }>({
    method: 'POST',
    path: '/api/conversations/:id/messages',
    operationId: 'sendMessage',
    summary: 'Send a message (text up to 2,000 characters and/or up to 4 images uploaded with POST /api/messages/images); replying to a request accepts it',
    auth: 'required',
    status: 201,
    schema: { params: idParams, body: { $ref: 'messages/SendMessageBody' }, response: { 201: { $ref: 'messages/Message' } } },
    handler: (c) => {
      assertMaySend(c.user);
      return store.send(c.user!.id, c.input.params.id, c.input.body);
    },
  });

  routes.add<{ id: number }, unknown, { messageId?: number }>({
    method: 'POST',
    path: '/api/conversations/:id/read',
    operationId: 'markConversationRead',
    summary: 'Mark the conversation read up to a message (default: its latest); answers the new unread counts',
    auth: 'required',
    schema: {
      params: idParams,
      body: { type: 'object', additionalProperties: false, properties: { messageId: { $ref: 'shared/Id' } } },
      response: {
        type: 'object',
        additionalProperties: false,
        required: ['conversationUnreadCount', 'count', 'requests'],
        properties: { conversationUnreadCount: { type: 'integer' }, count: { type: 'integer' }, requests: { type: 'integer' } },
      },
    },
    handler: (c) => store.markRead(c.user!.id, c.input.params.id, c.input.body?.messageId),
  });

  routes.add<{ id: number }, unknown, { userIds: number[] }>({
    method: 'POST',
    path: '/api/conversations/:id/participants',
    operationId: 'addConversationParticipants',
    summary: "Add members to a group conversation (its creator only; at most 10 members; accounts' rule applies to each)",
    auth: 'required',
    schema: {
      params: idParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['userIds'],
        properties: { userIds: { type: 'array', minItems: 1, maxItems: 49, uniqueItems: true, items: { $ref: 'shared/Id' } } },
      },
      response: conversation,
    },
    handler: (c) => store.addParticipants(c.user!.id, c.input.params.id, c.input.body.userIds),
  });

  routes.add<{ id: number }, unknown, { muted: boolean }>({
    method: 'POST',
    path: '/api/conversations/:id/mute',
    operationId: 'muteConversation',
    summary: 'Mute (or unmute) a conversation: a muted one sends no notifications',
    auth: 'required',
    schema: {
      params: idParams,
      body: { type: 'object', additionalProperties: false, required: ['muted'], properties: { muted: { type: 'boolean' } } },
      response: conversation,
    },
    handler: (c) => store.mute(c.user!.id, c.input.params.id, c.input.body.muted),
  });

  routes.add({
    method: 'POST',
    path: '/api/messages/images',
    operationId: 'uploadMessageImages',
    summary:
      'Upload images for a message you are writing (multipart "files", at most 4, 10 MB each); checked on content, re-encoded without metadata. ' +
      'Send their ids with the message; unsent uploads are forgotten after a day.',
    auth: 'required',
    bodyType: 'multipart',
    status: 201,
    schema: { response: { 201: { type: 'array', items: { $ref: 'messages/MessageImage' } } } },
    async handler(c) {
      const user = c.user!;
      // refused before reading the upload: a restricted member's files are never stored
      assertMaySend(user);
      const parsed = await ctx.uploads.parse(c as any, { maxFileSize: MAX_IMAGE_BYTES, maxFiles: MAX_IMAGES, fileFields: ['files'], tooLargeMessage: IMAGE_TEXT.tooLarge });
      const stored: ProcessedImage[] = [];
      try {
        const files = parsed.files.filter((f) => f.size > 0);
        if (!files.length) throw new HttpError(400, IMAGE_TEXT.none);
        for (const f of files) {
          stored.push(
            await ctx.uploads.processImage(f, { prefix: `messages/${user.id}`, width: 2048, height: 2048, thumbnail: { width: 480, height: 480 }, invalidMessage: IMAGE_TEXT.notImage }),
          );
        }
        return await store.storeImages(user.id, stored);
      } catch (e) {
        for (const s of stored) {
          for (const key of [s.key, s.thumbnailUrl ? ctx.storage.keyFromUrl(s.thumbnailUrl) : null]) if (key) await ctx.storage.delete(key).catch(() => {});
        }
        throw e;
      } finally {
        await ctx.uploads.cleanup(parsed.files);
      }
    },
  });
}
