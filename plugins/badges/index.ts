import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'badges',
  description: 'Badges earned from activity.',
  dependsOn: ['accounts'],
  optionalDependsOn: ['insights', 'museums', 'communities', 'events'],
});
