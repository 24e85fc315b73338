import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Counters kept in the same transaction as the follow rows (see follows.ts): exact under concurrency.
  await knex.schema.alterTable('users', (t) => {
    t.integer('followers_count').notNullable().defaultTo(0);
    t.integer('following_count').notNullable().defaultTo(0);
  });
  await knex.raw('alter table users add constraint users_follow_counts_check check (followers_count >= 0 and following_count >= 0)');

  await knex.schema.createTable('user_follows', (t) => {
    t.integer('follower_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('following_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['follower_id', 'following_id']);
    t.index(['following_id', 'created_at']);
  });
  await knex.raw('alter table user_follows add constraint user_follows_not_self check (follower_id <> following_id)');

  // One row per user who changed a setting; absent means the defaults (service.ts DEFAULT_PREFERENCES).
  await knex.schema.createTable('user_preferences', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.string('profile_visibility', 16).notNullable().defaultTo('public');
    t.boolean('show_email').notNullable().defaultTo(false);
    t.boolean('show_followers').notNullable().defaultTo(true);
    t.boolean('show_following').notNullable().defaultTo(true);
    t.boolean('allow_messages').notNullable().defaultTo(true);
    t.boolean('allow_tagging').notNullable().defaultTo(true);
    t.boolean('email_notifications').notNullable().defaultTo(true);
    t.boolean('push_notifications').notNullable().defaultTo(true);
    t.boolean('follow_notifications').notNullable().defaultTo(true);
    t.boolean('like_notifications').notNullable().defaultTo(true);
    t.boolean('comment_notifications').notNullable().defaultTo(true);
    t.boolean('museum_updates').notNullable().defaultTo(true);
    t.boolean('event_reminders').notNullable().defaultTo(true);
    t.boolean('weekly_digest').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table user_preferences add constraint user_preferences_visibility_check check (profile_visibility in ('public','friends','private'))`);

  // The throttles' counters (throttle.ts): key, points spent, expire (epoch ms). The layout was
  // rate-limiter-flexible's RateLimiterPostgres; throttle.ts now runs its own statements on it.
  await knex.raw('create table accounts_login_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)');
  await knex.raw('create index accounts_login_limits_expire on accounts_login_limits (expire)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('accounts_login_limits');
  await knex.schema.dropTable('user_preferences');
  await knex.schema.dropTable('user_follows');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('followers_count');
    t.dropColumn('following_count');
  });
}
