import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'accounts',
  description: 'Members: sign-up and sign-in, sessions, profiles, follows, settings.',
  dependsOn: [],
});
