import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'insights',
  description: 'Text and video insights, feed, likes, comments, recommendations.',
  dependsOn: ['accounts', 'museums'],
  // its weekly digest section (notifications' DigestSections)
  optionalDependsOn: ['notifications'],
});
