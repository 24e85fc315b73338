/**
 * Admin action names written to the audit log, and how the dashboard shows them
 * (spec part 2 §2 Overview: icon by keyword, badge style by keyword, title-cased name).
 */
export const ACTIONS = {
  warnUser: 'moderate_user_warning',
  temporaryBanUser: 'moderate_user_temporary_ban',
  permanentBanUser: 'moderate_user_permanent_ban',
  restrictUser: 'moderate_user_content_restriction',
  liftModeration: 'lift_user_moderation',
  changeUserRole: 'change_user_role',
  deleteUser: 'delete_user',
  createMuseum: 'create_museum',
  updateMuseum: 'update_museum',
  verifyMuseum: 'verify_museum',
  unverifyMuseum: 'unverify_museum',
  assignMuseumManager: 'assign_museum_manager',
  removeMuseumManager: 'remove_museum_manager',
  updateMuseums: 'update_museums',
  approveEditSuggestion: 'approve_museum_edit_suggestion',
  rejectEditSuggestion: 'reject_museum_edit_suggestion',
  approveMuseumSuggestion: 'approve_museum_suggestion',
  rejectMuseumSuggestion: 'reject_museum_suggestion',
  createBadge: 'create_badge',
  updateBadge: 'update_badge',
  deleteBadge: 'delete_badge',
  sendNotification: 'send_notification',
  createPlan: 'create_monetization_plan',
  activatePlan: 'activate_monetization_plan',
  deactivatePlan: 'deactivate_monetization_plan',
} as const;

export type ActionName = (typeof ACTIONS)[keyof typeof ACTIONS];

export const MODERATION_ACTION: Record<string, ActionName> = {
  warning: ACTIONS.warnUser,
  temporary_ban: ACTIONS.temporaryBanUser,
  permanent_ban: ACTIONS.permanentBanUser,
  content_restriction: ACTIONS.restrictUser,
};

/** "approve_museum_edit_suggestion" → "Approve Museum Edit Suggestion" */
export function titleCase(action: string): string {
  return action
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ');
}

export type ActionIcon = 'user' | 'museum' | 'badge' | 'notification' | 'action';

/** Icon by the first keyword the action contains: user, museum, badge, notification. */
export function actionIcon(action: string): ActionIcon {
  const a = action.toLowerCase();
  for (const k of ['user', 'museum', 'badge', 'notification'] as const) if (a.includes(k)) return k;
  return 'action';
}

export type ActionStyle = 'destructive' | 'default' | 'secondary' | 'outline';

/** destructive for delete or ban, default for verify or approve, secondary for warning, otherwise outline. */
export function actionStyle(action: string): ActionStyle {
  const a = action.toLowerCase();
  if (a.includes('delete') || a.includes('ban')) return 'destructive';
  if (a.includes('verify') || a.includes('approve')) return 'default';
  if (a.includes('warning')) return 'secondary';
  return 'outline';
}

/** Up to `size` page buttons around the current page (the Recent Admin Actions sliding window). */
export function pageWindow(page: number, totalPages: number, size = 5): number[] {
  if (totalPages <= 0) return [];
  const n = Math.min(size, totalPages);
  let start = Math.max(1, page - Math.floor(n / 2));
  start = Math.min(start, totalPages - n + 1);
  return Array.from({ length: n }, (_, i) => start + i);
}
