import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'accounts',
  description: 'Members: sign-up and sign-in, sessions, profiles, follows, settings.',
  dependsOn: [],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      deletionGraceDays: {
        type: 'integer',
        minimum: 0,
        maximum: 90,
        default: 14,
        description: "Days between a member's deletion request and the erasure; signing in before cancels it (0: at once). Admins delete at once.",
      },
      sessionCache: {
        type: 'object',
        description: 'Sessions each process keeps after reading them (no statement for a member\'s next requests within ttlMs); forgotten in every process when a session ends or changes, or its member is banned, restricted, deleted or changes role, username or password. ttlMs 0 switches it off.',
        additionalProperties: false,
        default: {},
        properties: {
          ttlMs: { type: 'integer', minimum: 0, maximum: 60000, default: 5000 },
          max: { type: 'integer', minimum: 0, maximum: 1000000, default: 10000, description: 'Sessions kept at most per process (the oldest go first)' },
        },
      },
      retention: {
        type: 'object',
        description: 'How long what is kept only for a while stays (PRIVACY.md); the hourly accounts.retention job purges it. Sessions go when they expire, throttle rows when their window ends.',
        additionalProperties: false,
        default: {},
        properties: {
          emailTokenDays: { type: 'integer', minimum: 0, maximum: 365, default: 1, description: 'Days a password-reset or confirmation token is kept after it expired' },
          archiveDays: { type: 'integer', minimum: 1, maximum: 90, default: 7, description: 'Days a ready data archive can be downloaded; then its file is deleted' },
          archiveRecordDays: { type: 'integer', minimum: 1, maximum: 365, default: 30, description: 'Days the record of an archive (without its file) is kept; the once-a-day rule reads it' },
        },
      },
      loginThrottle: {
        type: 'object',
        description: 'Throttling of failed sign-ins (kept in PostgreSQL, shared by every app process).',
        additionalProperties: false,
        default: {},
        properties: {
          failuresPerAccountAndIp: { type: 'integer', minimum: 1, default: 10, description: 'Consecutive failures for one account from one IP before a block' },
          accountAndIpBlockMinutes: { type: 'integer', minimum: 1, default: 15 },
          failuresPerIpPerDay: { type: 'integer', minimum: 1, default: 100, description: 'Failures from one IP (any account) per day' },
          failuresPerAccount: { type: 'integer', minimum: 1, default: 50, description: 'Failures for one account from any IP within accountWindowMinutes' },
          accountWindowMinutes: { type: 'integer', minimum: 1, default: 60 },
          accountBlockMinutes: { type: 'integer', minimum: 1, default: 15, description: 'Short, and skipped on devices that signed in to the account before' },
        },
      },
      signupThrottle: {
        type: 'object',
        description: 'Sign-ups from one IP address per hour (kept in PostgreSQL, shared by every app process).',
        additionalProperties: false,
        default: {},
        properties: {
          perIpPerHour: { type: 'integer', minimum: 1, default: 30, description: 'Accounts created from one IP per hour' },
          failuresPerIpPerHour: { type: 'integer', minimum: 1, default: 20, description: 'Sign-ups refused (email or username taken, password refused) from one IP per hour' },
        },
      },
      recoveryThrottle: {
        type: 'object',
        description: 'Password reset requests and confirmation emails per hour (counted in PostgreSQL).',
        additionalProperties: false,
        default: {},
        properties: {
          resetPerIpPerHour: { type: 'integer', minimum: 1, default: 30 },
          resetPerAddressPerHour: { type: 'integer', minimum: 1, default: 5 },
          verifyPerUserPerHour: { type: 'integer', minimum: 1, default: 5 },
        },
      },
    },
  },
});
