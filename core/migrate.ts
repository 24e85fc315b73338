import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { CODE_ROOT, COMPILED, moduleFile } from './config.ts';
import type { LoadedPlugin } from './plugins.ts';
import { isPostgresServer } from './db.ts';

class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private dir: string) {}
  async getMigrations() {
    if (!fs.existsSync(this.dir)) return [];
    // named x.ts as they were first applied, also where the compiled server runs x.js
    const ext = COMPILED ? /\.js$/ : /\.ts$/;
    return fs.readdirSync(this.dir).filter((f) => /^\d{14}_/.test(f) && ext.test(f)).map((f) => f.replace(ext, '.ts')).sort();
  }
  getMigrationName(m: string) {
    return m;
  }
  async getMigration(m: string) {
    return import(pathToFileURL(moduleFile(path.join(this.dir, m))).href);
  }
}

export interface MigrationUnit {
  id: string;
  dir: string;
}

/** core first, then every plugin (enabled or not: a disabled plugin keeps its tables) in dependency order. */
export function migrationUnits(plugins: LoadedPlugin[]): MigrationUnit[] {
  return [
    { id: 'core', dir: path.join(CODE_ROOT, 'core', 'migrations') },
    ...plugins.map((p) => ({ id: p.manifest.id, dir: path.join(p.dir, 'server', 'migrations') })),
  ];
}

/** An arbitrary constant naming the migrations lock (pg_advisory_lock). */
const MIGRATIONS_LOCK = 0x43555249; // 'CURI'

/**
 * Runs each unit's migrations with its own knex migrations table. Returns the names applied.
 * On PostgreSQL, processes starting together wait for each other: a session-level advisory lock
 * is held on one dedicated connection around all units (knex's own lock is per unit and fails
 * the loser instead of waiting).
 */
export async function migrateAll(knex: Knex, plugins: LoadedPlugin[], log?: (msg: string) => void): Promise<string[]> {
  const isPg = isPostgresServer(knex);
  if (!isPg) return migrateUnits(knex, plugins, log);
  const conn = await knex.client.acquireConnection();
  try {
    await conn.query('select pg_advisory_lock($1)', [MIGRATIONS_LOCK]);
    try {
      return await migrateUnits(knex, plugins, log);
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATIONS_LOCK]);
    }
  } finally {
    await knex.client.releaseConnection(conn);
  }
}

async function migrateUnits(knex: Knex, plugins: LoadedPlugin[], log?: (msg: string) => void): Promise<string[]> {
  const applied: string[] = [];
  for (const unit of migrationUnits(plugins)) {
    const source = new FolderMigrationSource(unit.dir);
    if ((await source.getMigrations()).length === 0) continue;
    const [, names] = await knex.migrate.latest({
      migrationSource: source,
      tableName: `knex_migrations_${unit.id.replace(/-/g, '_')}`,
      disableMigrationsListValidation: false,
    });
    for (const n of names as string[]) {
      applied.push(`${unit.id}/${n}`);
      log?.(`migrated ${unit.id}/${n}`);
    }
  }
  return applied;
}

export async function rollbackAll(knex: Knex, plugins: LoadedPlugin[]): Promise<void> {
  for (const unit of migrationUnits(plugins).reverse()) {
    const source = new FolderMigrationSource(unit.dir);
    if ((await source.getMigrations()).length === 0) continue;
    await knex.migrate.rollback({ migrationSource: source, tableName: `knex_migrations_${unit.id.replace(/-/g, '_')}` }, true);
  }
}
