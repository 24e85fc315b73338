import type { Knex } from 'knex';

/**
 * Insights keep their own tables. user_id / museum_id are ids owned by the accounts and museums
 * plugins (no foreign keys across plugins: their rows are cleaned up through events).
 * created_at is kept at millisecond precision so that a keyset cursor written by JavaScript
 * (ISO time + id) matches rows exactly.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('insights_posts', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable();
    t.string('type', 8).notNullable();
    t.text('content').notNullable().defaultTo('');
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.integer('museum_id').nullable();
    t.integer('pending_suggestion_id').nullable();
    t.text('video_url').nullable();
    t.text('poster_url').nullable();
    t.specificType('images', 'text[]').notNullable().defaultTo('{}');
    t.integer('likes_count').notNullable().defaultTo(0);
    t.integer('comments_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
  });
  await knex.raw(`alter table insights_posts add constraint insights_posts_type_check check (type in ('text','video'))`);
  await knex.raw(`alter table insights_posts add constraint insights_posts_counts_check check (likes_count >= 0 and comments_count >= 0)`);
  await knex.raw(`alter table insights_posts add constraint insights_posts_video_check check (type <> 'video' or video_url is not null)`);
  await knex.raw(`create index insights_posts_time_idx on insights_posts (created_at, id)`);
  await knex.raw(`create index insights_posts_user_time_idx on insights_posts (user_id, created_at, id)`);
  await knex.raw(`create index insights_posts_museum_time_idx on insights_posts (museum_id, created_at, id) where museum_id is not null`);
  await knex.raw(`create index insights_posts_pending_idx on insights_posts (pending_suggestion_id) where pending_suggestion_id is not null`);

  await knex.schema.createTable('insights_likes', (t) => {
    t.integer('post_id').notNullable().references('insights_posts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['post_id', 'user_id']);
  });
  await knex.raw(`create index insights_likes_user_idx on insights_likes (user_id, created_at)`);

  await knex.schema.createTable('insights_comments', (t) => {
    t.increments('id');
    t.integer('post_id').notNullable().references('insights_posts.id').onDelete('CASCADE');
    t.integer('user_id').notNullable();
    t.integer('parent_id').nullable().references('insights_comments.id').onDelete('CASCADE');
    t.text('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
  });
  await knex.raw(`create index insights_comments_post_idx on insights_comments (post_id, created_at, id)`);
  await knex.raw(`create index insights_comments_user_idx on insights_comments (user_id, created_at)`);
  await knex.raw(`create index insights_comments_parent_idx on insights_comments (parent_id) where parent_id is not null`);

  // Uploaded videos, checked and processed; a post may use an upload of its own author once.
  await knex.schema.createTable('insights_videos', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable();
    t.text('storage_key').notNullable().unique();
    t.text('url').notNullable().unique();
    t.text('poster_key').nullable();
    t.text('poster_url').nullable();
    t.float('duration').notNullable();
    t.integer('width').nullable();
    t.integer('height').nullable();
    t.bigInteger('size').notNullable();
    t.integer('post_id').nullable().references('insights_posts.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`create index insights_videos_user_idx on insights_videos (user_id)`);
  await knex.raw(`create index insights_videos_unused_idx on insights_videos (created_at) where post_id is null`);

  // Museum activity seen through museums events (check-ins, follows), for trending museums.
  await knex.schema.createTable('insights_museum_activity', (t) => {
    t.bigIncrements('id');
    t.string('kind', 16).notNullable();
    t.integer('museum_id').notNullable();
    t.integer('user_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table insights_museum_activity add constraint insights_museum_activity_kind_check check (kind in ('checkin','follow'))`);
  await knex.raw(`create index insights_museum_activity_time_idx on insights_museum_activity (created_at)`);
  await knex.raw(`create unique index insights_museum_activity_follow_uq on insights_museum_activity (user_id, museum_id) where kind = 'follow'`);
  await knex.raw(`create index insights_museum_activity_user_idx on insights_museum_activity (user_id)`);

  // A copy of the user follow graph fed by 'accounts.user.followed', used only while the accounts
  // service offers no followingIds().
  await knex.schema.createTable('insights_follow_edges', (t) => {
    t.integer('follower_id').notNullable();
    t.integer('following_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['follower_id', 'following_id']);
  });
  await knex.raw(`create index insights_follow_edges_following_idx on insights_follow_edges (following_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('insights_follow_edges');
  await knex.schema.dropTableIfExists('insights_museum_activity');
  await knex.schema.dropTableIfExists('insights_videos');
  await knex.schema.dropTableIfExists('insights_comments');
  await knex.schema.dropTableIfExists('insights_likes');
  await knex.schema.dropTableIfExists('insights_posts');
}
