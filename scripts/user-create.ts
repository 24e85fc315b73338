/**
 * npm run user:create -- --email E --username U --password P [--role Admin] [--first-name F] [--last-name L]
 *
 * Creates a member with a role (operators bootstrapping the first Admin, tests). Migrates first, so it
 * works on a fresh DATA_DIR; on the embedded database the app must be stopped (the database is
 * single-process); on PostgreSQL (DATABASE_URL) at any time. The password may also come from the
 * CURIO_USER_PASSWORD environment variable, to keep it out of shell history.
 * Exits non-zero with a message on a duplicate email or username, an unknown role or a bad value.
 */
import { parseArgs } from 'node:util';
import { loadConfig, type CurioConfig } from '../core/config.ts';
import { openDatabase, type Database } from '../core/db.ts';
import { discoverPlugins, resolvePlugins } from '../core/plugins.ts';
import { migrateAll } from '../core/migrate.ts';
import { createUser, DuplicateUserError, PasswordRejectedError } from '../plugins/accounts/server/users.ts';
import { canonicalRole, ROLES } from '../plugins/accounts/server/roles.ts';

const USAGE = 'Usage: npm run user:create -- --email E --username U --password P [--role Traveler|Ambassador|"Museum Manager"|Admin] [--first-name F] [--last-name L]';

function fail(message: string): never {
  process.stderr.write(`user:create: ${message}\n`);
  process.exit(1);
}

async function main() {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        username: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string', default: 'Traveler' },
        'first-name': { type: 'string', default: '' },
        'last-name': { type: 'string', default: '' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    fail(`${(e as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const email = String(values.email ?? '').trim();
  const username = String(values.username ?? '').trim();
  const password = String(values.password ?? process.env.CURIO_USER_PASSWORD ?? '');
  const missing = [!email && '--email', !username && '--username', !password && '--password'].filter(Boolean);
  if (missing.length) fail(`missing ${missing.join(', ')}\n${USAGE}`);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail(`'${email}' is not a valid email address`);
  if (!/^[A-Za-z0-9_.-]{3,30}$/.test(username)) fail('the username must be 3 to 30 characters: letters, numbers, dots, dashes and underscores');
  const role = canonicalRole(String(values.role));
  if (!role) fail(`unknown role '${values.role}': use one of ${ROLES.join(', ')}`);

  let config: CurioConfig;
  try {
    config = loadConfig();
  } catch (e) {
    fail((e as Error).message);
  }
  let db: Database;
  try {
    db = await openDatabase(config);
  } catch (e) {
    fail((e as Error).message);
  }
  let problem: string | null = null;
  try {
    const plugins = resolvePlugins(await discoverPlugins(), config.plugins.disabled);
    await migrateAll(db.knex, plugins);
    const user = await createUser(db.knex, {
      email,
      username,
      password,
      role,
      firstName: String(values['first-name'] ?? '').trim(),
      lastName: String(values['last-name'] ?? '').trim(),
    });
    // created by the operator: the address counts as confirmed (no link to open)
    await db.knex('users').where({ id: user.id }).update({ email_verified_at: db.knex.fn.now() });
    process.stdout.write(`Created ${user.role} '${user.username}' <${user.email}> with id ${user.id}\n`);
  } catch (e) {
    problem = e instanceof DuplicateUserError || e instanceof PasswordRejectedError ? e.message : ((e as Error).message ?? String(e));
  } finally {
    await db.close();
  }
  if (problem) fail(problem);
}

main().catch((e) => fail((e as Error)?.stack ?? String(e)));
