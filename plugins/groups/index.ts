import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'groups',
  description: 'Groups with posts and comments.',
  dependsOn: ['accounts'],
});
