import type { Knex } from 'knex';

/**
 * Account recovery and email confirmation (routes-recovery.ts):
 * - users.email_verified_at (null: not confirmed); members who existed before are taken as
 *   confirmed, only new sign-ups and changed addresses have to confirm;
 * - users.locale (the language of their emails, from the browser at sign-up) and users.time_zone
 *   (IANA name, for reminders and the digest; null: UTC);
 * - accounts_email_tokens: reset and confirmation links, stored as sha256 of the 32 random bytes
 *   the link carries, single use, with an expiry;
 * - accounts_recovery_limits: atomic per-IP and per-address counters for reset requests.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('email_verified_at', { useTz: true }).nullable();
    t.string('locale', 8).nullable();
    t.string('time_zone', 64).nullable();
  });
  await knex('users').update({ email_verified_at: knex.ref('created_at') });
  await knex.schema.createTable('accounts_email_tokens', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('purpose', 16).notNullable(); // reset | verify
    t.string('token_hash', 64).notNullable().unique();
    t.specificType('email', 'citext').notNullable(); // the address the link was sent to
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['user_id', 'purpose']);
  });
  await knex.raw(`alter table accounts_email_tokens add constraint accounts_email_tokens_purpose_check check (purpose in ('reset','verify'))`);
  await knex.schema.createTable('accounts_recovery_limits', (t) => {
    t.string('key', 300).primary();
    t.integer('count').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('accounts_recovery_limits');
  await knex.schema.dropTable('accounts_email_tokens');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
    t.dropColumn('locale');
    t.dropColumn('time_zone');
  });
}
