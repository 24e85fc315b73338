import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'events',
  description: 'Meetups and museum events, RSVP, photos, calendars.',
  dependsOn: ['accounts', 'museums', 'communities'],
  optionalDependsOn: ['groups', 'notifications'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      attendanceEarlyMinutes: {
        type: 'integer',
        minimum: 0,
        maximum: 720,
        default: 30,
        description: "A verified check-in at a meetup's museum from this many minutes before its start to its end marks an attending member attended",
      },
    },
    default: {},
  },
});
