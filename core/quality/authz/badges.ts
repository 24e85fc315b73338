import { everyone, member, type AuthzRow } from './types.ts';

export const rows: AuthzRow[] = [
  { route: 'GET /api/badges', expect: everyone() },
  { route: 'GET /api/badges/progress', expect: member() },
];
