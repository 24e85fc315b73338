import type { Knex } from 'knex';

/** Groups, their members, posts, likes and comments. Children cascade with their group. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('groups', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('is_private').notNullable().defaultTo(false);
    t.string('location', 200).notNullable().defaultTo('');
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.text('image_url').nullable();
    t.integer('creator_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('member_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['creator_id']);
  });
  await knex.raw(`alter table groups add constraint groups_member_count_check check (member_count >= 0)`);

  await knex.schema.createTable('group_members', (t) => {
    t.increments('id');
    t.integer('group_id').notNullable().references('groups.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role', 10).notNullable().defaultTo('member');
    t.timestamp('joined_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['group_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.raw(`alter table group_members add constraint group_members_role_check check (role in ('admin','member'))`);

  await knex.schema.createTable('group_posts', (t) => {
    t.increments('id');
    t.integer('group_id').notNullable().references('groups.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 10).notNullable().defaultTo('text');
    t.text('content').notNullable();
    t.integer('likes_count').notNullable().defaultTo(0);
    t.integer('comments_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['group_id', 'id']);
  });
  await knex.raw(`alter table group_posts add constraint group_posts_type_check check (type in ('text'))`);
  await knex.raw(`alter table group_posts add constraint group_posts_counts_check check (likes_count >= 0 and comments_count >= 0)`);

  await knex.schema.createTable('group_post_likes', (t) => {
    t.integer('post_id').notNullable().references('group_posts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['post_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('group_comments', (t) => {
    t.increments('id');
    t.integer('post_id').notNullable().references('group_posts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('parent_id').nullable().references('group_comments.id').onDelete('CASCADE');
    t.text('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['post_id', 'id']);
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['group_comments', 'group_post_likes', 'group_posts', 'group_members', 'groups']) await knex.schema.dropTableIfExists(t);
}
