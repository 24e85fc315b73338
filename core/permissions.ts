import { HttpError } from './errors.ts';
import type { AuthUser, PermissionCheck, Permissions } from './plugin-api.ts';

export class PermissionRegistry implements Permissions {
  private checks = new Map<string, PermissionCheck>();

  define(name: string, check: PermissionCheck): void {
    if (!/^[a-z][a-z0-9-]*\.[a-zA-Z0-9-]+\.[a-zA-Z0-9-]+$/.test(name)) throw new Error(`Permission names are <plugin>.<resource>.<action>: ${name}`);
    if (this.checks.has(name)) throw new Error(`Permission ${name} is defined twice`);
    this.checks.set(name, check);
  }

  async check(name: string, user: AuthUser | undefined, resource?: unknown): Promise<boolean> {
    const c = this.checks.get(name);
    if (!c) throw new Error(`Unknown permission ${name}`);
    return Boolean(await c(user, resource));
  }

  async assert(name: string, user: AuthUser | undefined, resource?: unknown, message = 'Access denied'): Promise<void> {
    if (await this.check(name, user, resource)) return;
    throw user ? new HttpError(403, message) : new HttpError(401, 'Authentication required');
  }

  names(): string[] {
    return [...this.checks.keys()].sort();
  }
}
