import { definePlugin } from '../../core/plugin-api.ts';

export default definePlugin({
  id: 'publicweb',
  description:
    'The public web: link previews (title, description, canonical, OpenGraph, JSON-LD) and server-rendered text of the public pages, sitemap, robots.txt, Atom and ICS feeds, preview images.',
  dependsOn: ['accounts', 'museums'],
  optionalDependsOn: ['events', 'insights', 'communities'],
  configSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      publicUrl: { type: ['string', 'null'], pattern: '^https?://[^\\s]+$', maxLength: 300, default: null, description: 'The site\'s public address (https://curio.example) for canonical links, OpenGraph URLs, sitemap and feed links; env PUBLIC_URL; unset: PUBLIC_ORIGIN, else each request\'s protocol and Host' },
      sitemapPageSize: { type: 'integer', minimum: 1, maximum: 50000, default: 50000, description: 'URLs per sitemap page (the protocol allows 50,000)' },
      sitemapCacheSeconds: { type: 'integer', minimum: 0, default: 600, description: 'How long a built sitemap page is reused' },
      imageFetchTimeoutMs: { type: 'integer', minimum: 100, default: 3000, description: 'Fetching a museum picture for its preview image' },
    },
    default: {},
  },
});
