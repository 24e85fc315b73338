import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'communities',
  description: 'Communities with discussion, polls, moderation.',
  dependsOn: ['accounts'],
});
