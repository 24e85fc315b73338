import type { Knex } from 'knex';

/**
 * Communities and everything that lives inside one. Every child row cascades with its community,
 * so DELETE /api/communities/{id} removes the whole community in one statement.
 * membership_type is canonical 'open' | 'private' ('public' is accepted on input as 'open').
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('communities', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('image_url').nullable();
    t.string('location', 200).notNullable().defaultTo('');
    t.string('type', 40).notNullable().defaultTo('general');
    t.string('membership_type', 10).notNullable().defaultTo('open');
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.text('rules').notNullable().defaultTo('');
    t.integer('creator_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('member_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['creator_id']);
  });
  await knex.raw(`alter table communities add constraint communities_membership_type_check check (membership_type in ('open','private'))`);
  await knex.raw(`alter table communities add constraint communities_member_count_check check (member_count >= 0)`);

  await knex.schema.createTable('community_members', (t) => {
    t.increments('id');
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role', 16).notNullable().defaultTo('member');
    t.boolean('can_post').notNullable().defaultTo(true);
    t.boolean('can_comment').notNullable().defaultTo(true);
    t.boolean('is_muted').notNullable().defaultTo(false);
    t.boolean('requires_approval').notNullable().defaultTo(false);
    t.timestamp('joined_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_active_at', { useTz: true }).nullable();
    t.unique(['community_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.raw(`alter table community_members add constraint community_members_role_check check (role in ('member','moderator','admin'))`);

  await knex.schema.createTable('community_join_requests', (t) => {
    t.increments('id');
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('status', 10).notNullable().defaultTo('pending');
    t.string('message', 500).notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.integer('decided_by').nullable().references('users.id').onDelete('SET NULL');
    t.index(['community_id', 'status']);
  });
  await knex.raw(`alter table community_join_requests add constraint community_join_requests_status_check check (status in ('pending','accepted','declined','cancelled'))`);
  await knex.raw(`create unique index community_join_requests_one_pending on community_join_requests (community_id, user_id) where status = 'pending'`);

  await knex.schema.createTable('community_bans', (t) => {
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('reason', 500).notNullable().defaultTo('');
    t.integer('banned_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['community_id', 'user_id']);
  });

  await knex.schema.createTable('community_posts', (t) => {
    t.increments('id');
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 12).notNullable().defaultTo('text');
    t.text('content').notNullable();
    t.string('title', 200).nullable();
    t.jsonb('poll_options').nullable();
    t.string('event_title', 200).nullable();
    t.timestamp('event_date_time', { useTz: true }).nullable();
    t.string('event_location', 200).nullable();
    t.text('event_description').nullable();
    t.text('video_url').nullable();
    t.text('link_url').nullable();
    t.boolean('is_pinned').notNullable().defaultTo(false);
    t.timestamp('pinned_at', { useTz: true }).nullable();
    t.string('status', 10).notNullable().defaultTo('published');
    t.integer('reviewed_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('reviewed_at', { useTz: true }).nullable();
    t.integer('likes_count').notNullable().defaultTo(0);
    t.integer('comments_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['community_id', 'status', 'is_pinned', 'id']);
    t.index(['community_id', 'user_id']);
  });
  await knex.raw(`alter table community_posts add constraint community_posts_type_check check (type in ('text','discussion','poll','event','video','link'))`);
  await knex.raw(`alter table community_posts add constraint community_posts_status_check check (status in ('published','pending','rejected'))`);
  await knex.raw(`alter table community_posts add constraint community_posts_counts_check check (likes_count >= 0 and comments_count >= 0)`);

  await knex.schema.createTable('community_post_likes', (t) => {
    t.integer('post_id').notNullable().references('community_posts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['post_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('community_poll_votes', (t) => {
    t.integer('post_id').notNullable().references('community_posts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('option_index').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['post_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('community_comments', (t) => {
    t.increments('id');
    t.integer('post_id').notNullable().references('community_posts.id').onDelete('CASCADE');
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('parent_id').nullable().references('community_comments.id').onDelete('CASCADE');
    t.text('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['post_id', 'id']);
    t.index(['community_id', 'user_id']);
    t.index(['parent_id']);
  });

  // Reports keep a snapshot of what was reported, so they survive the content's removal.
  await knex.schema.createTable('community_reports', (t) => {
    t.increments('id');
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.string('target_type', 10).notNullable();
    t.integer('post_id').nullable().references('community_posts.id').onDelete('SET NULL');
    t.integer('comment_id').nullable().references('community_comments.id').onDelete('SET NULL');
    t.integer('target_post_id').nullable();
    t.integer('target_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.text('excerpt').notNullable().defaultTo('');
    t.integer('reporter_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('reason', 500).notNullable();
    t.string('status', 10).notNullable().defaultTo('open');
    t.string('resolution', 20).nullable();
    t.integer('resolved_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('resolved_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['community_id', 'status']);
    t.index(['post_id']);
    t.index(['comment_id']);
  });
  await knex.raw(`alter table community_reports add constraint community_reports_status_check check (status in ('open','resolved'))`);
  await knex.raw(`alter table community_reports add constraint community_reports_target_type_check check (target_type in ('post','comment'))`);
  await knex.raw(`create unique index community_reports_one_open_post on community_reports (reporter_id, post_id) where status = 'open' and post_id is not null`);
  await knex.raw(`create unique index community_reports_one_open_comment on community_reports (reporter_id, comment_id) where status = 'open' and comment_id is not null`);

  await knex.schema.createTable('community_warnings', (t) => {
    t.increments('id');
    t.integer('community_id').notNullable().references('communities.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('reason', 500).notNullable();
    t.integer('issued_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['community_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['community_warnings', 'community_reports', 'community_comments', 'community_poll_votes', 'community_post_likes', 'community_posts', 'community_bans', 'community_join_requests', 'community_members', 'communities']) {
    await knex.schema.dropTableIfExists(t);
  }
}
