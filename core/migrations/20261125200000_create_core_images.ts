import type { Knex } from 'knex';

/**
 * What is known of each stored master image once its responsive variants are made (core/images.ts):
 * its size, the widths made (each in AVIF, WebP and JPEG) and a BlurHash placeholder. The API puts
 * it beside an image's URL (`describeImages`), so pages build `srcset` from what exists instead of
 * guessing. One row per storage key; written by the variants jobs, deleted with the image.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('core_images', (t) => {
    t.string('key', 512).primary();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.specificType('widths', 'integer[]').notNullable();
    t.string('blurhash', 64).nullable();
    t.timestamp('made_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('core_images');
}
