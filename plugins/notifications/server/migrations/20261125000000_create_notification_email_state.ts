import type { Knex } from 'knex';

/**
 * Notification emails (emails.ts): per member, when the last batch email went and the last
 * notification it covered, so that a member gets at most one email per 15 minutes with what
 * happened since, and nothing twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_email_state', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.timestamp('last_email_at', { useTz: true }).nullable();
    t.bigInteger('last_notification_id').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_email_state');
}
