import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService, type AccountsApi } from '../../accounts/public.ts';
import { NotificationsService, type NewNotification, type NotificationType } from '../../notifications/public.ts';

export interface Deps {
  ctx: PluginContext;
  knex: Knex;
  accounts: AccountsApi;
  /** Sends a notification (type 'community' unless given) when the notifications plugin is enabled; never throws. */
  notify(userIds: number[], n: Omit<NewNotification, 'type'> & { type?: NotificationType }): Promise<void>;
}

export function makeDeps(ctx: PluginContext): Deps {
  return {
    ctx,
    knex: ctx.db,
    get accounts() {
      return ctx.services.get(AccountsService);
    },
    async notify(userIds, n) {
      const svc = ctx.services.maybe(NotificationsService);
      if (!svc || !userIds.length) return;
      try {
        await svc.notify(userIds, { priority: 'normal', ...n, type: n.type ?? 'community' });
      } catch (err) {
        ctx.log.warn({ err }, 'community notification failed');
      }
    },
  };
}

export const idParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { $ref: 'shared/Id' } },
} as const;

export const idMemberParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'memberId'],
  properties: { id: { $ref: 'shared/Id' }, memberId: { $ref: 'shared/Id' } },
} as const;

/** Bare $ref responses are wrapped in allOf so the client generator names each response type. */
export const okResponse = { allOf: [{ $ref: 'shared/Ok' }] } as const;

export const reasonBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', 'x-label': 'Reason', 'x-messages': { required: 'Reason is required', minLength: 'Reason is required', pattern: 'Reason is required' } },
  },
} as const;
