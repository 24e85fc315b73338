/**
 * Settings → Your data (issue 24): ask for an archive of everything one put in, follow its
 * progress, download it (its owner only, signed in, for 7 days).
 */
import type { RouteDeps } from './deps.ts';

export function addDataRoutes({ ctx, userData }: RouteDeps): void {
  ctx.routes.add({
    method: 'POST',
    path: '/api/user/exports',
    operationId: 'requestDataExport',
    summary: 'Ask for an archive of your data (built in the background; one a day: 429 otherwise)',
    auth: 'required',
    status: 202,
    schema: { response: { 202: { $ref: 'accounts/DataExport' } } },
    handler: (c) => userData.requestExport(c.user!.id),
  });

  ctx.routes.add({
    method: 'GET',
    path: '/api/user/exports',
    operationId: 'listDataExports',
    summary: 'Your data archives, newest first, with progress and download links',
    auth: 'required',
    schema: { response: { $ref: 'accounts/DataExportList' } },
    handler: (c) => userData.listExports(c.user!.id),
  });

  ctx.routes.add<{ id: number }>({
    method: 'GET',
    path: '/api/user/exports/:id/download',
    operationId: 'downloadDataExport',
    summary: 'Download one of your archives (ZIP); 404 for anyone else and once expired',
    auth: 'required',
    raw: true,
    rawContentType: 'application/zip',
    schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } },
    async handler(c) {
      const f = await userData.openExport(c.user!.id, c.input.params.id);
      c.set('Content-Type', 'application/zip');
      c.set('Content-Disposition', `attachment; filename="${f.name}"`);
      c.set('Cache-Control', 'private, no-store');
      c.set('X-Content-Type-Options', 'nosniff');
      c.body = f.stream;
      c.length = f.size;
    },
  });

  ctx.routes.add<unknown, unknown, { csv: string }>({
    method: 'POST',
    path: '/api/user/follows/import',
    operationId: 'importFollows',
    summary: 'Follow again from a CSV (Curio follows.csv / museum-follows.csv, or a Mastodon-style list of handles); private profiles get requests, blocks are refused',
    auth: 'required',
    schema: { body: { $ref: 'accounts/FollowImportBody' }, response: { $ref: 'accounts/FollowImportResult' } },
    handler: (c) => userData.importFollows(c.user!.id, c.input.body.csv),
  });
}
