import type { Knex } from 'knex';

/**
 * Scheduled work (core/jobs.ts) and email (core/mail.ts): keys of jobs that must run once ever (a reminder, a digest of a
 * given week, one email), and the repeating schedules.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('core_job_keys', (t) => {
    t.string('key', 300).primary();
    t.bigInteger('job_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('core_jobs', (t) => {
    t.index(['unique_key']);
  });
  // Emails sent (core/mail.ts): a retried send job finds its message here and does not send again.
  await knex.schema.createTable('core_mail_sent', (t) => {
    t.string('key', 300).primary();
    t.string('message_id', 200).notNullable();
    t.string('recipient', 320).notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('core_mail_sent');
  await knex.schema.alterTable('core_jobs', (t) => {
    t.dropIndex(['unique_key']);
  });
  await knex.schema.dropTable('core_job_keys');
}
