import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'events',
  description: 'Meetups and museum events, RSVP, photos, calendars.',
  dependsOn: ['accounts', 'museums', 'communities'],
  optionalDependsOn: ['groups', 'notifications'],
});
