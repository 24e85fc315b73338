import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { fitsAudience, type WebUser } from '../plugin-web.ts';
import { usePluginRegistry, Slot, type NavEntry } from '../lib/plugins.tsx';
import { useAuth } from '../lib/auth.tsx';
import { useCreateDialog } from '../lib/create-dialog.tsx';
import { useAppConfig } from '../lib/app-config.tsx';
import { hasRole } from '../lib/roles.ts';
import { signInPath } from '../lib/next-path.ts';
import { Icon } from '../components/Icon.tsx';
import { Avatar } from '../components/Avatar.tsx';
import { RoleBadge } from '../components/RoleBadge.tsx';
import { Logo } from './Logo.tsx';

export interface ResolvedNavItem {
  key: string;
  label: string;
  to: string;
  icon: string;
  active: boolean;
}

/** Default active rule: '/' only on '/', any other item on its path and below. */
export function isNavActive(item: Pick<NavEntry, 'isActive'>, to: string, pathname: string, user: WebUser | null = null): boolean {
  const p = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  if (item.isActive) return item.isActive(p, user);
  const target = to.toLowerCase().split('?')[0].replace(/\/+$/, '') || '/';
  if (target === '/') return p === '/';
  return p === target || p.startsWith(`${target}/`);
}

export function useNavItems(): ResolvedNavItem[] {
  const { nav } = usePluginRegistry();
  const { user } = useAuth();
  const { pathname } = useLocation();
  const visible = nav.filter((item) => {
    return fitsAudience(item.audience, user) && hasRole(user, item.roles);
  });
  // the labels' namespaces: "nav:museums.discover", every plugin's nav texts, bundled with the shell (i18n.ts)
  const namespaces = ['core', ...new Set(visible.filter((item) => item.label.includes(':')).map((item) => item.label.split(':')[0]).filter((ns) => ns !== 'core'))];
  const { t } = useTranslation(namespaces);
  return visible
    .map((item) => {
      const to = typeof item.to === 'function' ? item.to(user) : item.to;
      return { key: `${item.plugin}:${item.key}`, label: t(item.label), to, icon: item.icon, active: isNavActive(item, to, pathname, user) };
    });
}

function displayName(user: WebUser): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return full || user.username;
}

function CreateButton({ className, withLabel = false }: { className?: string; withLabel?: boolean }) {
  const { t } = useTranslation('core');
  const dialog = useCreateDialog();
  const { user } = useAuth();
  // visitors get the Sign in button instead of a Create button that bounces them (issue 21 #8)
  if (!dialog.available || !user) return null;
  return (
    <button
      type="button"
      className={`curio-create-button ${className ?? ''}`}
      onClick={() => dialog.open()}
      aria-label={withLabel ? undefined : t('nav.createLabel')}
      title={t('nav.createLabel')}
      aria-haspopup="dialog"
    >
      <Icon name="plus" size={withLabel ? 18 : 22} strokeWidth={2.5} />
      {withLabel && <span>{t('nav.create')}</span>}
    </button>
  );
}

function UserMenu({ user }: { user: WebUser }) {
  const { t } = useTranslation('core');
  const { logout } = useAuth();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        ref.current?.querySelector<HTMLButtonElement>('.curio-user-button')?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const name = displayName(user);
  return (
    <div ref={ref} className={`dropdown is-right curio-user-menu${open ? ' is-active' : ''}`}>
      <div className="dropdown-trigger">
        <button
          type="button"
          className="curio-user-button"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={t('nav.userMenu')}
          onClick={() => setOpen((o) => !o)}
        >
          <Avatar src={user.profileImageUrl} info={user.profileImageInfo} name={name} size={34} decorative />
          <Icon name="chevron-down" size={16} className="is-hidden-touch" />
        </button>
      </div>
      <div className="dropdown-menu" id={menuId}>
        <div className="dropdown-content">
          <div className="dropdown-item curio-user-menu__header">
            <p className="has-text-weight-semibold">{name}</p>
            <p className="is-size-7 has-text-grey">@{user.username}</p>
            <RoleBadge role={user.role} hideTraveler className="mt-1" />
          </div>
          <hr className="dropdown-divider" />
          <Slot name="shell.userMenu" user={user} onNavigate={() => setOpen(false)} />
          <button
            type="button"
            className="dropdown-item curio-user-menu__item"
            onClick={() => {
              setOpen(false);
              void logout();
            }}
          >
            <Icon name="logout" size={16} /> <span>{t('nav.signOut')}</span>
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * How the top bar fits its width. Bulma's container is 960 px wide from 1024 to 1215 px, and six
 * destinations (seven for an admin), Create, the envelope, the bell and the account menu need more
 * (about 1,150 px in English, more in French): the end of the bar, the account menu with it, was
 * cut off. Tighter links first ('is-compact'), then the links' icons alone ('is-icons-only'; their
 * names stay for screen readers and as tooltips). Measured, not guessed: it depends on the
 * language, the member's items and what the plugins put at the end.
 */
const TOPBAR_FITS = ['', 'is-compact', 'is-icons-only'] as const;
/** the bar's content is no wider than the bar */
const topBarFits = (el: HTMLElement) => el.scrollWidth <= el.clientWidth + 1;

/**
 * The first of `stages` (class names tried on the element; '' for none) at which `fits(el)` holds,
 * the last one when none does. Measured before the browser paints (no frame with cut labels), and
 * again when the element or one of its children changes size, or, with `watch`, when the children of
 * that part of it change (what plugins put there arrives later).
 */
function useFirstFit<S extends string>(ref: RefObject<HTMLElement | null>, stages: readonly S[], fits: (el: HTMLElement) => boolean, deps: unknown[], watch?: string): S {
  const [fit, setFit] = useState<S>(stages[0]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const named = stages.filter(Boolean);
    const measure = () => {
      if (!el.offsetWidth) return; // hidden at this width: nothing to fit
      const classes = el.className;
      let chosen = stages[stages.length - 1];
      for (const stage of stages) {
        el.classList.remove(...named);
        if (stage) el.classList.add(stage);
        if (fits(el)) {
          chosen = stage;
          break;
        }
      }
      el.className = classes;
      setFit(chosen);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    for (const child of el.children) ro.observe(child);
    const watched = watch ? el.querySelector(watch) : null;
    const mo = watched ? new MutationObserver(measure) : null;
    if (watched) mo!.observe(watched, { childList: true, subtree: true });
    return () => {
      ro.disconnect();
      mo?.disconnect();
    };
  }, deps);
  return fit;
}

export function TopBar() {
  const { t, i18n } = useTranslation('core');
  const items = useNavItems();
  const { user } = useAuth();
  const { appName, plugins } = useAppConfig();
  const { pathname, search } = useLocation();
  const bar = useRef<HTMLElement>(null);
  // measured again when the bell and the envelope arrive at the bar's end
  const fit = useFirstFit(bar, TOPBAR_FITS, topBarFits, [items.map((i) => i.label).join('|'), i18n.language, user?.id ?? null], '.curio-topbar__end');
  return (
    <header className="curio-topbar" role="banner">
      <nav ref={bar} className={`curio-topbar__inner container${fit ? ` ${fit}` : ''}`} aria-label={t('nav.main')}>
        <Link to="/" className="curio-brand" aria-label={appName}>
          <Logo />
          <span className="curio-brand__name">{appName}</span>
        </Link>
        <ul className="curio-topbar__items is-hidden-touch">
          {items.map((item) => (
            <li key={item.key}>
              <Link to={item.to} className={`curio-navlink${item.active ? ' is-active' : ''}`} aria-current={item.active ? 'page' : undefined} title={fit === 'is-icons-only' ? item.label : undefined}>
                <Icon name={item.icon} size={18} />
                <span className="curio-navlink__label">{item.label}</span>
              </Link>
            </li>
          ))}
        </ul>
        <div className="curio-topbar__end">
          <CreateButton className="is-hidden-touch" withLabel />
          {/* members' items (messages, notifications, badge celebrations): not loaded for visitors */}
          {user && <Slot name="shell.topbarEnd" user={user} />}
          {user ? (
            <UserMenu user={user} />
          ) : (
            plugins.includes('accounts') &&
            pathname.toLowerCase() !== '/auth' && (
              <Link to={signInPath(pathname + search)} className="button is-primary is-rounded is-small curio-signin">
                {t('nav.signIn')}
              </Link>
            )
          )}
        </div>
      </nav>
    </header>
  );
}

/**
 * How the bottom bar's labels fit their slots. Six destinations and the add button leave about
 * 43 px a slot on a 320 px phone, and "Disc…", "Gro…", "Eve…" read as broken: a label slightly too
 * long is set a little smaller ('compact'); when that is not enough the bar shows its icons alone
 * ('icons'; the labels stay the links' names for screen readers). Measured at each size in turn,
 * not guessed from the width: it depends on the language and the items.
 */
const BOTTOMBAR_FITS = ['', 'is-compact-labels', 'is-icons-only'] as const;
/** every label fits its slot (scrollWidth is the label's whole text even where it is clipped) */
const bottomBarFits = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('.curio-bottom-link__label')].every((l) => l.scrollWidth <= Math.max(1, (l.parentElement?.clientWidth ?? 0) - 4));

export function BottomBar() {
  const { t, i18n } = useTranslation('core');
  const items = useNavItems();
  const dialog = useCreateDialog();
  const { user } = useAuth();
  const bar = useRef<HTMLElement>(null);
  const labelFit = useFirstFit(bar, BOTTOMBAR_FITS, bottomBarFits, [items.map((i) => i.label).join('|'), i18n.language]);
  const canCreate = dialog.available && !!user;
  // Keep the add button in the middle of the bar.
  const mid = canCreate ? Math.ceil(items.length / 2) : items.length;
  const render = (item: ResolvedNavItem) => (
    <li key={item.key}>
      <Link to={item.to} className={`curio-bottom-link${item.active ? ' is-active' : ''}`} aria-current={item.active ? 'page' : undefined}>
        <Icon name={item.icon} size={22} />
        <span className="curio-bottom-link__label">{item.label}</span>
      </Link>
    </li>
  );
  if (!items.length && !canCreate) return null;
  return (
    <nav ref={bar} className={`curio-bottom-bar is-hidden-desktop${labelFit ? ` ${labelFit}` : ''}`} aria-label={t('nav.mobile')}>
      <ul>
        {items.slice(0, mid).map(render)}
        {canCreate && (
          <li>
            <CreateButton className="is-floating" />
          </li>
        )}
        {items.slice(mid).map(render)}
      </ul>
    </nav>
  );
}
