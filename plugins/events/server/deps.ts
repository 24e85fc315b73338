/**
 * The other plugins' services, looked up when needed (never at import time): the providers
 * register before us, optional ones (groups, notifications) may be disabled.
 */
import type { PluginContext } from '../../../core/plugin-api.ts';
import { AccountsService, type AccountsApi } from '../../accounts/public.ts';
import { MuseumsService, type MuseumsApi, type MuseumSummary } from '../../museums/public.ts';
import { isValidTimeZone } from '../shared/time.ts';
import { CommunitiesService, type CommunitiesApi } from '../../communities/public.ts';
import { GroupsService, type GroupsApi } from '../../groups/public.ts';
import { NotificationsService, type NotificationsApi, type NewNotification } from '../../notifications/public.ts';

export interface Deps {
  accounts(): AccountsApi;
  museums(): MuseumsApi;
  communities(): CommunitiesApi;
  groups(): GroupsApi | undefined;
  notify(userIds: number[], n: NewNotification): Promise<void>;
}

/** The museum's IANA zone (MuseumSummary.timezone; null without a museum or for an unknown zone). */
export function museumTimeZone(museum: MuseumSummary | null | undefined): string | null {
  return typeof museum?.timezone === 'string' && isValidTimeZone(museum.timezone) ? museum.timezone : null;
}

export function makeDeps(ctx: PluginContext): Deps {
  return {
    accounts: () => ctx.services.get(AccountsService),
    museums: () => ctx.services.get(MuseumsService),
    communities: () => ctx.services.get(CommunitiesService),
    groups: () => (ctx.enabled.has('groups') ? ctx.services.maybe(GroupsService) : undefined),
    async notify(userIds, n) {
      const svc: NotificationsApi | undefined = ctx.enabled.has('notifications') ? ctx.services.maybe(NotificationsService) : undefined;
      const ids = [...new Set(userIds)];
      if (!svc || !ids.length) return;
      try {
        await svc.notify(ids, n);
      } catch (err) {
        ctx.log.warn({ err }, 'could not send event notifications');
      }
    },
  };
}
