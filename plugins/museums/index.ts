import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'museums',
  description: 'Museum directory, profiles, hours, follows, check-ins, edits, search and map.',
  dependsOn: ['accounts'],
});
