import type { Knex } from 'knex';

/**
 * badges: definitions. user_badges: one row per (member, badge), unique, so concurrent or repeated
 * events never award twice. badge_activity: one row per counted fact (a check-in, a post, a like
 * received, a museum followed, a community joined) keyed by its source, so a duplicated event is
 * counted once and an undo (unlike, unfollow, leave, delete) finds what to take back.
 * badge_counters: the per-member count of each requirement type, moved in the same transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('badges', (t) => {
    t.increments('id');
    t.specificType('name', 'citext').notNullable().unique();
    t.string('description', 500).notNullable();
    t.string('icon', 64).notNullable();
    t.string('color', 7).notNullable();
    t.string('requirement_type', 32).notNullable();
    t.integer('requirement_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['requirement_type', 'requirement_count']);
  });
  await knex.raw(`alter table badges add constraint badges_requirement_type_check check (requirement_type in ('check_ins','posts','likes','follows','community_joins'))`);
  await knex.raw(`alter table badges add constraint badges_requirement_count_check check (requirement_count >= 1)`);
  await knex.raw(`alter table badges add constraint badges_color_check check (color ~ '^#[0-9A-Fa-f]{6}$')`);

  await knex.schema.createTable('user_badges', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('badge_id').notNullable().references('badges.id').onDelete('CASCADE');
    t.timestamp('earned_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'badge_id']);
    t.index(['badge_id']);
    t.index(['earned_at']);
  });

  await knex.schema.createTable('badge_activity', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    t.string('ref', 80).notNullable();
    /** the post whose likes these are (likes received), to take them back when it is deleted */
    t.bigInteger('scope').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['type', 'ref']);
  });
  await knex.raw('create index badge_activity_scope on badge_activity (type, scope) where scope is not null');
  await knex.raw('create index badge_activity_user on badge_activity (user_id)');

  await knex.schema.createTable('badge_counters', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'type']);
  });
  await knex.raw('alter table badge_counters add constraint badge_counters_count_check check (count >= 0)');
  await knex.raw('create index badge_counters_type_user on badge_counters (type, user_id, count)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('badge_counters');
  await knex.schema.dropTable('badge_activity');
  await knex.schema.dropTable('user_badges');
  await knex.schema.dropTable('badges');
}
