import type { Knex } from 'knex';

/** @username mentions of posts and comments, resolved when written (AccountsApi.resolveMentions) and stored with the text. */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['group_posts', 'group_comments']) {
    await knex.schema.alterTable(table, (t) => {
      t.jsonb('mentions').notNullable().defaultTo('[]');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['group_posts', 'group_comments']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('mentions');
    });
  }
}
