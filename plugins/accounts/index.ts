import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'accounts',
  description: 'Members: sign-up and sign-in, sessions, profiles, follows, settings.',
  dependsOn: [],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
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
