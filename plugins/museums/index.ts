import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'museums',
  description: 'Museum directory, profiles, hours, follows, check-ins, edits, search and map.',
  dependsOn: ['accounts'],
  optionalDependsOn: ['notifications'],
  permissions: {
    'museums.museum.edit': 'Edit a museum directly: Admin, or the Museum Manager whose id is its managerId',
    'museums.museum.create': 'Create a museum profile (any signed-in member)',
  },
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      wikidataApiUrl: { type: 'string', default: 'https://www.wikidata.org/w/api.php', description: 'Wikidata Action API (wbsearchentities)' },
      wikidataSparqlUrl: { type: 'string', default: 'https://query.wikidata.org/sparql', description: 'Wikidata SPARQL endpoint' },
      wikidataTimeoutMs: { type: 'integer', minimum: 100, default: 8000 },
      geocoderUrl: { type: 'string', default: 'https://nominatim.openstreetmap.org/search', description: 'Nominatim-style search endpoint (q, format=jsonv2, limit)' },
      geocoderTimeoutMs: { type: 'integer', minimum: 100, default: 8000 },
      geocoderMinIntervalMs: { type: 'integer', minimum: 0, default: 1000, description: 'Spacing between provider calls (Nominatim: 1 per second)' },
      geocodeCacheDays: { type: 'integer', minimum: 1, default: 30 },
      userAgent: { type: 'string', default: 'Curio/0.1 (museum directory; contact: admin@curio.example)', description: 'Sent to Wikidata and the geocoder, as their usage policies ask' },
      language: { type: 'string', default: 'en' },
      recentCheckInDays: { type: 'integer', minimum: 1, default: 30, description: 'Window of recentCheckInsCount' },
      checkInRadiusMeters: { type: 'number', minimum: 10, maximum: 10000, default: 300, description: 'A check-in is verified within this distance of the museum (minus the reported accuracy)' },
      checkInMaxAccuracyMeters: { type: 'number', minimum: 10, maximum: 100000, default: 1000, description: 'Positions less precise than this never verify a check-in' },
      checkInMaxSpeedKmh: { type: 'number', minimum: 10, maximum: 5000, default: 900, description: 'Faster straight-line travel from the previous verified check-in is an impossible journey' },
      busyMinCheckIns: { type: 'integer', minimum: 1, default: 20, description: 'Verified check-ins needed before the best-time-to-visit histogram shows' },
    },
    default: {},
  },
});
