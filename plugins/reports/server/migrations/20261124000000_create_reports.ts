import type { Knex } from 'knex';

/**
 * reports: one row per reporter and report. At most one OPEN report per reporter and target
 * (partial unique index), so a second one is refused (409) even under concurrent requests.
 * The reported content is kept as it was when reported (snapshot). container_*: the object that
 * holds the target (a comment's insight): its deletion resolves the report too.
 * reports_throttle: one counter row per member and window, bumped in one atomic upsert.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reports', (t) => {
    t.bigIncrements('id');
    t.integer('reporter_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('target_type', 32).notNullable();
    t.integer('target_id').notNullable();
    t.integer('target_owner_id').nullable();
    t.string('container_type', 32).nullable();
    t.integer('container_id').nullable();
    t.string('category', 32).notNullable();
    t.string('note', 1000).nullable();
    t.jsonb('snapshot').notNullable();
    t.string('status', 16).notNullable().defaultTo('open');
    t.string('resolution', 32).nullable();
    t.integer('resolved_by').nullable();
    t.timestamp('resolved_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table reports add constraint reports_status_check check (status in ('open','resolved','dismissed'))`);
  await knex.raw(
    `alter table reports add constraint reports_target_type_check check (target_type in ('insight','comment','user','community_post','community_comment','meetup','message'))`,
  );
  await knex.raw(`alter table reports add constraint reports_category_check check (category in ('spam','harassment','hate','violence','sexual','misinformation','other'))`);
  await knex.raw(`create unique index reports_one_open on reports (reporter_id, target_type, target_id) where status = 'open'`);
  await knex.raw('create index reports_target on reports (target_type, target_id)');
  await knex.raw('create index reports_container on reports (container_type, container_id) where container_type is not null');
  await knex.raw('create index reports_queue on reports (status, created_at desc, id desc)');
  await knex.raw('create index reports_reporter on reports (reporter_id, id desc)');

  await knex.schema.createTable('reports_throttle', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('reports_throttle');
  await knex.schema.dropTableIfExists('reports');
}
