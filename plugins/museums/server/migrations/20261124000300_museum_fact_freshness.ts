import type { Knex } from 'knex';

/**
 * How fresh each fact group of a museum is (issue 20): when it was last confirmed and by whom
 * (manager edit, admin, approved suggestion, member confirmation), and the members' answers to
 * the "still right?" question after a check-in (one per member, museum, group and local day).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('museum_fact_confirmations', (t) => {
    t.integer('museum_id').notNullable().references('museums.id').onDelete('CASCADE');
    t.string('fact_group', 20).notNullable();
    t.timestamp('confirmed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('source', 20).notNullable();
    t.integer('confirmed_by').nullable().references('users.id').onDelete('SET NULL');
    t.primary(['museum_id', 'fact_group']);
  });
  await knex.raw(`alter table museum_fact_confirmations add constraint museum_fact_confirmations_check check (fact_group in ('hours','admission','accessibility','contact') and source in ('manager','admin','suggestion','member'))`);
  await knex.schema.createTable('museum_fact_answers', (t) => {
    t.increments('id');
    t.integer('museum_id').notNullable().references('museums.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('fact_group', 20).notNullable();
    t.date('local_date').notNullable();
    t.boolean('agrees').notNullable();
    t.text('correction').nullable();
    t.integer('suggestion_id').nullable().references('museum_edit_suggestions.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'museum_id', 'fact_group', 'local_date'], { indexName: 'museum_fact_answers_one_per_day' });
    t.index(['museum_id', 'fact_group', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('museum_fact_answers');
  await knex.schema.dropTable('museum_fact_confirmations');
}
