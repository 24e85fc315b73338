import type { Knex } from 'knex';

/**
 * The admin plugin's own tables. They hold user and museum ids without foreign keys: users and
 * museums belong to other plugins (a deleted user's rows are cleaned up on accounts.user.deleting).
 */
export async function up(knex: Knex): Promise<void> {
  // The audit log: one row per admin action. `outcome` is 'done' for changes written in the same
  // transaction as the row, and 'pending' → 'done' for changes delegated to another plugin's service
  // (the row is written before the call and completed after it; a failed call deletes the row).
  await knex.schema.createTable('admin_actions', (t) => {
    t.bigIncrements('id');
    t.string('action', 64).notNullable();
    t.string('target_type', 32).notNullable();
    t.bigInteger('target_id').nullable();
    t.text('reason').nullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.integer('admin_id').nullable();
    t.string('admin_username', 100).nullable();
    t.string('outcome', 16).notNullable().defaultTo('done');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['target_type', 'target_id']);
  });
  await knex.raw(`alter table admin_actions add constraint admin_actions_outcome_check check (outcome in ('pending','done'))`);

  // Moderations: warnings, bans and content restrictions. Effective while status = 'active' and
  // (expires_at is null or expires_at > now()); lifting sets status 'revoked'.
  await knex.schema.createTable('admin_moderations', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable();
    t.string('type', 32).notNullable();
    t.text('reason').notNullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.integer('created_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('revoked_by').nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.text('revoke_reason').nullable();
  });
  await knex.raw(`alter table admin_moderations add constraint admin_moderations_type_check check (type in ('warning','temporary_ban','permanent_ban','content_restriction'))`);
  await knex.raw(`alter table admin_moderations add constraint admin_moderations_status_check check (status in ('active','revoked'))`);
  // Every request of a signed-in user looks up their active moderations.
  await knex.raw(`create index admin_moderations_active_user on admin_moderations (user_id) where status = 'active'`);
  await knex.raw(`create index admin_moderations_user_created on admin_moderations (user_id, created_at desc)`);

  // Monetization plans; money as integer cents.
  await knex.schema.createTable('admin_monetization_plans', (t) => {
    t.bigIncrements('id');
    t.string('type', 32).notNullable();
    t.string('plan', 16).notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 3).notNullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.jsonb('features').notNullable().defaultTo('{}');
    t.timestamp('start_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('end_date', { useTz: true }).nullable();
    t.integer('user_id').nullable();
    t.integer('museum_id').nullable();
    t.integer('created_by').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at', 'id']);
    t.index(['user_id']);
  });
  await knex.raw(`alter table admin_monetization_plans add constraint admin_plans_type_check check (type in ('premium_subscription','museum_partnership','event_promotion','advertisement'))`);
  await knex.raw(`alter table admin_monetization_plans add constraint admin_plans_plan_check check (plan in ('basic','premium','enterprise'))`);
  await knex.raw(`alter table admin_monetization_plans add constraint admin_plans_currency_check check (currency in ('USD','EUR','GBP'))`);
  await knex.raw(`alter table admin_monetization_plans add constraint admin_plans_status_check check (status in ('active','inactive','expired'))`);
  await knex.raw(`alter table admin_monetization_plans add constraint admin_plans_amount_check check (amount_cents >= 0)`);

  // Daily active users: when each member was last seen making a request (written at most every
  // few minutes per member and process), so the dashboard counts activity without reading the
  // accounts plugin's session table.
  await knex.schema.createTable('admin_user_activity', (t) => {
    t.integer('user_id').primary();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.index(['last_seen_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('admin_user_activity');
  await knex.schema.dropTable('admin_monetization_plans');
  await knex.schema.dropTable('admin_moderations');
  await knex.schema.dropTable('admin_actions');
}
