/** A user's badge as GET /api/user/{id}/badges answers it (accounts route, badges data). */
export interface ProfileBadge {
  id: number;
  earnedAt: string;
  badge: { id?: number; name: string; description: string; icon: string; color: string };
}

/** Props a profile page passes to its slots (any of these identify the member). */
export interface ProfileSlotProps {
  userId?: number;
  user?: { id: number } | null;
  profile?: { id: number } | null;
  /** the viewer's own profile */
  isOwn?: boolean;
  /** opens the BADGES tab (the strip's "+N") */
  onShowAll?: () => void;
}

export function profileUserId(p: ProfileSlotProps): number | null {
  return p.userId ?? p.user?.id ?? p.profile?.id ?? null;
}

export const userBadgesKey = (id: number | null) => (id ? `/api/user/${id}/badges` : null);
