/** The one authorization table: every plugin's rows together. */
import type { AuthzRow } from './types.ts';
import { rows as accountsBase } from './accounts.ts';
import { rows as accountsRecovery } from './accounts-recovery.ts';
import { rows as communities } from './communities.ts';
import { rows as groups } from './groups.ts';
import { rows as events } from './events.ts';
import { rows as insights } from './insights.ts';
import { rows as museums } from './museums.ts';
import { rows as notifications } from './notifications.ts';
import { rows as badges } from './badges.ts';
import { rows as admin } from './admin.ts';
import { rows as reports } from './reports.ts';
import { rows as core } from './core.ts';
import { rows as messages } from './messages.ts';
import { rows as publicweb } from './publicweb.ts';
import { rows as plans } from './plans.ts';

const accounts = [...accountsBase, ...accountsRecovery];

export const AUTHZ_TABLE: Record<string, AuthzRow[]> = { core, accounts, communities, groups, events, insights, museums, notifications, badges, admin, reports, messages, publicweb, plans };
