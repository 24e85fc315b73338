/**
 * Plan cache on PostgreSQL (issue 18): a statement the process runs again and again becomes a named
 * prepared statement on each pooled connection, so PostgreSQL parses and analyses it once per
 * connection and, after its first executions, plans it once (a generic plan, when PostgreSQL finds
 * it as good as a custom one: `plan_cache_mode = auto`). Knex sends every statement unnamed, which
 * makes PostgreSQL parse, analyse and plan it on every execution: on the museum page that was 1.7 ms
 * of PostgreSQL's CPU per request for 0.3 ms of execution, on the feed 3.5 ms.
 *
 * What becomes a prepared statement:
 * - statements with bindings only (without, pg uses the simple protocol, which allows several
 *   commands in one text: migrations, BEGIN/COMMIT);
 * - only once the same text was run PREPARE_AFTER times in this process (a `whereIn` of a new
 *   length, a one-off admin query never take a name), at most MAX_NAMES texts in all, and at most
 *   MAX_PER_CONNECTION prepared statements on one connection (PostgreSQL keeps each one's plan in
 *   that backend's memory).
 *
 * - never a statement whose text holds CUSTOM_PLAN (a comment): PostgreSQL plans it for its values
 *   on every run. For statements whose best plan depends on a value, where PostgreSQL's generic plan
 *   would serve every value with one plan: the insights search, whose pattern decides between a
 *   backward scan by time (a common word: eleven matches among the newest) and the trigram index (a
 *   rare one); once generic, its executions took 8.5 ms on average against 1-2 ms planned per run.
 *
 * A prepared `select *` whose table gains or loses a column (a migration run by another process
 * during a rolling deploy) fails with "cached plan must not change result type". Outside a
 * transaction the statement is deallocated and run again at once; inside one the transaction is
 * already aborted, so the error stands (the request fails once) and the statement is deallocated on
 * that connection's next use outside a transaction.
 */
import { createRequire } from 'node:module';
import type { Knex } from 'knex';

// knex's own PostgreSQL client (CommonJS, no type declarations)
const ClientPg: any = createRequire(import.meta.url)('knex/lib/dialects/postgres/index.js');

export const PREPARE_AFTER = 2;
/** in a statement's text (anywhere, e.g. after a condition): never prepared, planned for its values on every run */
export const CUSTOM_PLAN = '/* curio:custom-plan */';
export const MAX_NAMES = 2_000;
export const MAX_PER_CONNECTION = 200;
const MAX_COUNTED = 10_000;

type PgClient = {
  connection: { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> };
  query: (q: string) => Promise<unknown>;
  __knexTxId?: string;
  __curioPrepared?: number;
  __curioStale?: Set<string>;
};
type QueryObject = { sql?: string; bindings?: unknown[]; options?: Record<string, unknown> };

const isStaleResultType = (e: any) => e?.code === '0A000' && /cached plan must not change result type/.test(String(e?.message));

const seen = new Map<string, number>();
/** knex's text → PostgreSQL's numbered text (positionBindings), at most MAX_POSITIONED texts or MAX_POSITIONED_CHARS characters; then started afresh */
const positioned = new Map<string, string>();
let positionedChars = 0;
export const MAX_POSITIONED = 2_000;
const MAX_POSITIONED_CHARS = 4_000_000;
const names = new Map<string, string>();

function nameFor(conn: PgClient, obj: QueryObject): string | undefined {
  const sql = obj.sql;
  if (!sql || !obj.bindings?.length || obj.options?.name) return undefined;
  let name = names.get(sql);
  if (!name) {
    if (names.size >= MAX_NAMES || sql.includes(CUSTOM_PLAN)) return undefined;
    const n = (seen.get(sql) ?? 0) + 1;
    if (n < PREPARE_AFTER) {
      if (seen.size >= MAX_COUNTED) seen.clear();
      seen.set(sql, n);
      return undefined;
    }
    seen.delete(sql);
    name = `curio_${names.size + 1}`;
    names.set(sql, name);
  }
  if (conn.__curioStale?.has(name)) return undefined;
  if (conn.connection.parsedStatements[name] === undefined && (conn.__curioPrepared ?? 0) >= MAX_PER_CONNECTION) return undefined;
  return name;
}

function forget(conn: PgClient, name: string) {
  delete conn.connection.parsedStatements[name];
  delete conn.connection.submittedNamedStatements[name];
  conn.__curioPrepared = Math.max(0, (conn.__curioPrepared ?? 1) - 1);
}

/**
 * knex's PostgreSQL client with the plan cache, passed as knex's `client`. A subclass and not a
 * patched instance: knex makes each transaction's client from the class's prototype.
 */
export class PlanCachedPgClient extends (ClientPg as new (config: Knex.Config) => object) {
  /**
   * knex's `?` → `$n` rewrite (a regular expression with a callback over the whole text, on every
   * statement), remembered per text. The same text then comes back as the same string: its hash
   * is already known to the plan cache's lookup above, and pg's check that a named statement's
   * text is unchanged compares two references instead of two long strings.
   */
  positionBindings(sql: string): string {
    const known = positioned.get(sql);
    if (known !== undefined) return known;
    const out: string = (ClientPg.prototype.positionBindings as (s: string) => string).call(this, sql);
    if (positioned.size >= MAX_POSITIONED || positionedChars + sql.length > MAX_POSITIONED_CHARS) {
      positioned.clear();
      positionedChars = 0;
    }
    positioned.set(sql, out);
    positionedChars += sql.length;
    return out;
  }

  async _query(conn: PgClient, obj: QueryObject): Promise<unknown> {
    const run = (o: QueryObject) => ClientPg.prototype._query.call(this, conn, o);
    if (conn.__curioStale?.size && !conn.__knexTxId) {
      for (const stale of conn.__curioStale) await conn.query(`deallocate "${stale}"`).catch(() => {});
      conn.__curioStale.clear();
    }
    const name = nameFor(conn, obj);
    if (!name) return run(obj);
    const fresh = conn.connection.parsedStatements[name] === undefined;
    try {
      const result = await run({ ...obj, options: { ...obj.options, name } });
      if (fresh) conn.__curioPrepared = (conn.__curioPrepared ?? 0) + 1;
      return result;
    } catch (e) {
      if (!isStaleResultType(e)) throw e;
      forget(conn, name);
      if (conn.__knexTxId) {
        (conn.__curioStale ??= new Set()).add(name);
        throw e;
      }
      await conn.query(`deallocate "${name}"`).catch(() => {});
      return run(obj);
    }
  }
}
