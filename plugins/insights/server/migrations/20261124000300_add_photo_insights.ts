import type { Knex } from 'knex';

/**
 * Photo insights (issue 23): a third type `photo` with 1–10 images. Each uploaded image is a row of
 * insights_photos (its re-encoded master, EXIF/GPS stripped, kept as the original for exports;
 * its responsive variants; alt text; focal point; the author's consent to be featured by the
 * museum). A post keeps a copy of its photos' public fields in `photos` (jsonb, in order), so that
 * feed pages read them with the post and need no further statement; the copy is written in the
 * same transaction as the rows (attach, alt text edits, variants made).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table insights_posts drop constraint insights_posts_type_check`);
  await knex.raw(`alter table insights_posts add constraint insights_posts_type_check check (type in ('text','video','photo'))`);
  await knex.raw(`alter table insights_posts add column photos jsonb not null default '[]'::jsonb`);
  await knex.raw(`alter table insights_posts add column sensitive boolean not null default false`);
  await knex.raw(`alter table insights_posts add constraint insights_posts_photo_check check (type <> 'photo' or jsonb_array_length(photos) between 1 and 10)`);
  await knex.schema.createTable('insights_photos', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable();
    t.integer('post_id').nullable().references('insights_posts.id').onDelete('CASCADE');
    t.smallint('position').nullable();
    t.text('storage_key').notNullable().unique();
    t.text('url').notNullable().unique();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.bigInteger('size').notNullable();
    t.text('blurhash').nullable();
    t.specificType('variant_widths', 'integer[]').notNullable().defaultTo('{}');
    t.specificType('variant_keys', 'text[]').notNullable().defaultTo('{}');
    t.text('alt').notNullable().defaultTo('');
    t.float('focal_x').nullable();
    t.float('focal_y').nullable();
    t.boolean('allow_feature').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`create index insights_photos_user_idx on insights_photos (user_id)`);
  await knex.raw(`create index insights_photos_post_idx on insights_photos (post_id, position) where post_id is not null`);
  await knex.raw(`create index insights_photos_unused_idx on insights_photos (created_at) where post_id is null`);
  await knex.raw(`create index insights_photos_variant_keys_idx on insights_photos using gin (variant_keys)`);
  await knex.raw(`create unique index insights_photos_position_uq on insights_photos (post_id, position) where post_id is not null`);
  // The member photo a museum features (its manager's or an Admin's choice; the author consented).
  // photo_id goes null when the photo's insight is deleted: the museum's featuredImage is then cleared.
  await knex.schema.createTable('insights_museum_featured', (t) => {
    t.integer('museum_id').primary();
    t.integer('photo_id').nullable().references('insights_photos.id').onDelete('SET NULL');
    t.text('image_url').notNullable();
    t.integer('set_by').notNullable();
    t.timestamp('set_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`create index insights_posts_photo_museum_idx on insights_posts (museum_id, created_at, id) where type = 'photo' and museum_id is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop index if exists insights_posts_photo_museum_idx`);
  await knex.schema.dropTableIfExists('insights_museum_featured');
  await knex.schema.dropTableIfExists('insights_photos');
  await knex.raw(`alter table insights_posts drop constraint if exists insights_posts_photo_check`);
  await knex.raw(`delete from insights_posts where type = 'photo'`);
  await knex.raw(`alter table insights_posts drop column sensitive`);
  await knex.raw(`alter table insights_posts drop column photos`);
  await knex.raw(`alter table insights_posts drop constraint insights_posts_type_check`);
  await knex.raw(`alter table insights_posts add constraint insights_posts_type_check check (type in ('text','video'))`);
}
