import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import type { ImageInfo } from './components/ResponsiveImage.tsx';

/**
 * The contract between the web shell and a plugin's web/index.ts.
 * The shell imports every plugins/<id>/web/index.ts (import.meta.glob), keeps those that
 * GET /api/config lists as enabled, and builds routes, nav and slots from them.
 */
export type Audience = 'all' | 'signedIn' | 'signedOut';

/** Whether a page, nav item or slot contribution for `audience` is shown to this visitor (signed in or not). */
export function fitsAudience(audience: Audience | undefined, user: unknown): boolean {
  if (audience === 'signedIn') return !!user;
  if (audience === 'signedOut') return !user;
  return true;
}

export interface WebUser {
  id: number;
  slug?: string | null;
  username: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string;
  /** false while the member has not confirmed their email address */
  emailVerified?: boolean;
  role: string;
  profileImageUrl?: string | null;
  /** the avatar's size, made widths and placeholder (GET /api/auth/user answers it) */
  profileImageInfo?: ImageInfo | null;
}

export interface WebPage {
  /** react-router path, e.g. /museum/:slug; matched case-insensitively, first match wins */
  path: string;
  /** who may see it; signedIn pages send signed-out visitors to /auth */
  audience?: Audience;
  /** only these roles (others are redirected to /) */
  roles?: string[];
  component: LazyExoticComponent<ComponentType<any>> | ComponentType<any>;
  /** show the top bar to signed-out visitors on this page (spec: /museum, /museums, /discover, /events) */
  publicNav?: boolean;
}

export interface NavItem {
  key: string;
  /** i18n key: "nav:<plugin>.<key>" for the plugin's locale files' `nav.<key>` (bundled with the shell, i18n.ts), or "<namespace>:<key>" */
  label: string;
  to: string | ((user: WebUser | null) => string);
  /** a Bulma/emoji icon character or a small component */
  icon: string;
  order: number;
  audience?: Audience;
  roles?: string[];
  /** extra active rule (pathname lower-cased, no trailing slash); default: pathname starts with `to` */
  isActive?: (pathname: string, user: WebUser | null) => boolean;
}

export interface SlotContribution {
  order?: number;
  component: LazyExoticComponent<ComponentType<any>> | ComponentType<any>;
  /**
   * who it is for: a members-only contribution ('signedIn') is not rendered for visitors, so its
   * lazy code is not even fetched on the public pages
   */
  audience?: Audience;
  /**
   * what holds its place while its lazy code loads (nothing by default): the top bar's icons give
   * an empty box of their size (`navIconPlaceholder`), so the bar does not shift when they arrive
   */
  placeholder?: ReactNode;
}

export interface WebPlugin {
  id: string;
  pages?: WebPage[];
  nav?: NavItem[];
  /** named slots other pages declare with <Slot name="…" />, e.g. museum.insights */
  slots?: Record<string, SlotContribution[]>;
  /** live-update event type (GET /api/stream) → SWR key prefixes to revalidate when it arrives */
  live?: Record<string, string[]>;
}

export function defineWebPlugin(p: WebPlugin): WebPlugin {
  return p;
}
