import type { Knex } from 'knex';

/**
 * notifications: one row per recipient. notification_sends: admin sends (to all or listed members),
 * whose fan-out runs in batches; (send_id, user_id) is unique so a retried batch never doubles.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_sends', (t) => {
    t.bigIncrements('id');
    t.string('type', 32).notNullable().defaultTo('admin');
    t.string('title', 200).notNullable();
    t.string('message', 2000).notNullable();
    t.string('priority', 10).notNullable().defaultTo('normal');
    t.string('link', 500).nullable();
    t.string('template', 120).nullable();
    t.jsonb('params').nullable();
    t.string('audience', 10).notNullable(); // all | users
    t.integer('recipient_count').notNullable().defaultTo(0);
    t.integer('delivered_count').notNullable().defaultTo(0);
    /** all: members with id ≤ max_user_id at send time; cursor = last member id done */
    t.integer('max_user_id').nullable();
    t.integer('cursor').notNullable().defaultTo(0);
    t.string('status', 10).notNullable().defaultTo('sending'); // sending | done
    t.integer('sent_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
  });

  await knex.schema.createTable('notifications', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    t.string('title', 200).notNullable();
    t.string('message', 2000).notNullable();
    t.string('priority', 10).notNullable().defaultTo('normal');
    t.string('link', 500).nullable();
    t.boolean('read').notNullable().defaultTo(false);
    t.timestamp('read_at', { useTz: true }).nullable();
    t.string('template', 120).nullable();
    t.jsonb('params').nullable();
    t.string('dedupe_key', 200).nullable();
    t.bigInteger('send_id').nullable().references('notification_sends.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table notifications add constraint notifications_priority_check check (priority in ('low','normal','high','urgent'))`);
  await knex.raw(`alter table notification_sends add constraint notification_sends_priority_check check (priority in ('low','normal','high','urgent'))`);
  await knex.raw('create index notifications_user_newest on notifications (user_id, id desc)');
  await knex.raw('create index notifications_user_unread on notifications (user_id) where not read');
  await knex.raw('create unique index notifications_user_dedupe on notifications (user_id, dedupe_key) where dedupe_key is not null');
  await knex.raw('create unique index notifications_send_user on notifications (send_id, user_id) where send_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notifications');
  await knex.schema.dropTable('notification_sends');
}
