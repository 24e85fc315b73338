/**
 * The plugin registry (routes, nav, slots) built from the enabled plugins' web parts, and <Slot>.
 * The plugin modules themselves are imported by ./plugin-modules.ts (only the app entry uses it,
 * so plugins importing the shell's barrel make no import cycle).
 */
import { createContext, Suspense, useContext, useMemo, type ComponentType, type ReactNode } from 'react';
import { fitsAudience, type NavItem, type SlotContribution, type WebPage, type WebPlugin } from '../plugin-web.ts';
import { useOptionalUser } from './auth.tsx';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';

export interface PageEntry extends WebPage {
  plugin: string;
}
export interface NavEntry extends NavItem {
  plugin: string;
}
export interface SlotEntry extends SlotContribution {
  plugin: string;
  key: string;
}

export interface PluginRegistry {
  plugins: WebPlugin[];
  pages: PageEntry[];
  nav: NavEntry[];
  slots: ReadonlyMap<string, SlotEntry[]>;
}

/** Builds routes, nav and slots from the enabled plugins (order: the server's plugin order). */
export function buildRegistry(enabledIds: readonly string[], available: ReadonlyMap<string, WebPlugin>): PluginRegistry {
  const plugins = enabledIds.map((id) => available.get(id)).filter((p): p is WebPlugin => !!p);
  const pages: PageEntry[] = [];
  const nav: NavEntry[] = [];
  const slots = new Map<string, SlotEntry[]>();
  for (const p of plugins) {
    for (const page of p.pages ?? []) pages.push({ ...page, plugin: p.id });
    for (const item of p.nav ?? []) nav.push({ ...item, plugin: p.id });
    for (const [name, list] of Object.entries(p.slots ?? {})) {
      const arr = slots.get(name) ?? [];
      list.forEach((c, i) => arr.push({ ...c, plugin: p.id, key: `${p.id}:${i}` }));
      slots.set(name, arr);
    }
  }
  nav.sort((a, b) => a.order - b.order);
  for (const arr of slots.values()) arr.sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return { plugins, pages, nav, slots };
}

const empty: PluginRegistry = { plugins: [], pages: [], nav: [], slots: new Map() };
export const PluginRegistryContext = createContext<PluginRegistry>(empty);

export function usePluginRegistry(): PluginRegistry {
  return useContext(PluginRegistryContext);
}

/**
 * The contributions to a slot for this visitor, sorted by order: empty when none, when their plugins
 * are disabled, or when they are for members only and the visitor is signed out.
 */
export function useSlot(name: string): SlotEntry[] {
  const reg = usePluginRegistry();
  const user = useOptionalUser();
  return useMemo(() => (reg.slots.get(name) ?? []).filter((item) => fitsAudience(item.audience, user)), [reg, name, user]);
}

/** The place of a top bar icon (`.curio-nav-icon`, 40 px) while its code loads: SlotContribution.placeholder. */
export const navIconPlaceholder = <span className="curio-nav-icon" aria-hidden="true" />;

export type SlotProps = { name: string; fallback?: ReactNode } & Record<string, unknown>;

/**
 * Renders every contribution to a named slot, in order, with the given props; nothing when
 * there is none. `<Slot name="museum.insights" museumId={museum.id} />`
 */
export function Slot({ name, fallback = null, ...props }: SlotProps) {
  const items = useSlot(name);
  if (!items.length) return <>{fallback}</>;
  return (
    <>
      {items.map((item) => {
        const C = item.component as ComponentType<any>;
        return (
          <ErrorBoundary key={item.key} fallback={null}>
            <Suspense fallback={item.placeholder ?? null}>
              <C {...props} />
            </Suspense>
          </ErrorBoundary>
        );
      })}
    </>
  );
}
