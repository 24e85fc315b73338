import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'notifications',
  description: 'A notification inbox per member: what happened, as they chose to hear it.',
  dependsOn: ['accounts'],
});
