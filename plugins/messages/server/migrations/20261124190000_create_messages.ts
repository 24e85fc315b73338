import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('messages_conversations', (t) => {
    t.increments('id');
    t.string('kind', 8).notNullable(); // direct | group
    t.integer('creator_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    // 'low:high' member ids of a direct conversation: one per pair
    t.string('direct_key', 32).nullable().unique();
    t.timestamp('last_message_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('messages_participants', (t) => {
    t.integer('conversation_id').notNullable().references('id').inTable('messages_conversations').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('status', 8).notNullable(); // active | request | left
    t.boolean('muted').notNullable().defaultTo(false);
    t.bigInteger('last_read_message_id').notNullable().defaultTo(0);
    t.timestamp('joined_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['conversation_id', 'user_id']);
    t.index(['user_id', 'status']);
  });
  await knex.schema.createTable('messages_messages', (t) => {
    t.bigIncrements('id');
    t.integer('conversation_id').notNullable().references('id').inTable('messages_conversations').onDelete('CASCADE');
    t.integer('sender_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('body').notNullable().defaultTo('');
    t.timestamp('deleted_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['conversation_id', 'id']);
  });
  await knex.schema.createTable('messages_images', (t) => {
    t.bigIncrements('id');
    // both null until sent with a message (an upload waiting in the composer)
    t.integer('conversation_id').nullable().references('id').inTable('messages_conversations').onDelete('CASCADE');
    t.integer('uploader_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('message_id').nullable().references('id').inTable('messages_messages').onDelete('CASCADE');
    t.string('storage_key').notNullable();
    t.string('url').notNullable();
    t.string('thumbnail_url').nullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['message_id']);
    t.index(['uploader_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('messages_images');
  await knex.schema.dropTable('messages_messages');
  await knex.schema.dropTable('messages_participants');
  await knex.schema.dropTable('messages_conversations');
}
