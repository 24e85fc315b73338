import type Koa from 'koa';
import type { Knex } from 'knex';
import type { PluginContext } from '../../../core/plugin-api.ts';
import type { AccountsApi } from '../public.ts';
import type { LoginThrottle, SignupThrottle } from './throttle.ts';
import type { UserDataService } from './user-data.ts';

export interface RouteDeps {
  ctx: PluginContext;
  knex: Knex;
  api: AccountsApi;
  throttle: LoginThrottle;
  signups: SignupThrottle;
  deleteUser(userId: number): Promise<boolean>;
  userData: UserDataService;
  /**
   * Run by POST /api/auth/register once the member exists and is signed in, before it answers
   * (routes-recovery.ts adds the confirmation email's): a failure fails the sign-up's answer.
   */
  afterSignUp: Array<(c: Koa.Context, user: { id: number; email: string }) => Promise<void>>;
}

export const USER_NOT_FOUND = 'User not found';

/** Devices that signed in to an account before carry its id in this signed cookie. */
export const DEVICE_COOKIE = 'curio.dev';
const DEVICE_MAX_AGE = 365 * 24 * 3600 * 1000;

export function trustedUserIds(ctx: Koa.Context): number[] {
  const v = ctx.cookies.get(DEVICE_COOKIE, { signed: true });
  if (!v) return [];
  return v
    .split('.')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

export function trustDevice(ctx: Koa.Context, userId: number): void {
  const ids = [userId, ...trustedUserIds(ctx).filter((i) => i !== userId)].slice(0, 5);
  ctx.cookies.set(DEVICE_COOKIE, ids.join('.'), { signed: true, httpOnly: true, sameSite: 'lax', maxAge: DEVICE_MAX_AGE, overwrite: true });
}
