/**
 * Typed service references: the few things one plugin offers another.
 * `const UserDirectory = serviceRef<UserDirectoryApi>('accounts.userDirectory')`, provided by
 * one plugin and read by others with `ctx.services.get(UserDirectory)`.
 */
export interface ServiceRef<T> {
  id: string;
  /** phantom type carrier */
  __type?: T;
}

export function serviceRef<T>(id: string): ServiceRef<T> {
  return { id };
}

export class ServiceRegistry {
  private map = new Map<string, unknown>();
  provide<T>(ref: ServiceRef<T>, impl: T): void {
    if (this.map.has(ref.id)) throw new Error(`Service ${ref.id} is provided twice`);
    this.map.set(ref.id, impl);
  }
  get<T>(ref: ServiceRef<T>): T {
    if (!this.map.has(ref.id)) throw new Error(`Service ${ref.id} is not available (is its plugin enabled?)`);
    return this.map.get(ref.id) as T;
  }
  maybe<T>(ref: ServiceRef<T>): T | undefined {
    return this.map.get(ref.id) as T | undefined;
  }
}
