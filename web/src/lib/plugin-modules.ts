/**
 * Every plugins/<id>/web/index.ts, bundled eagerly (small: manifests of lazy pages); the shell
 * keeps those GET /api/config lists as enabled, in the server's (dependency) order.
 */
import type { WebPlugin } from '../plugin-web.ts';

type PluginModule = { default?: WebPlugin; plugin?: WebPlugin };

const modules = import.meta.glob<PluginModule>('../../../plugins/*/web/index.ts', { eager: true });

/** Every plugin's web part found at build time, by plugin id. */
export const bundledPlugins: ReadonlyMap<string, WebPlugin> = (() => {
  const map = new Map<string, WebPlugin>();
  for (const [file, mod] of Object.entries(modules)) {
    const folder = file.match(/plugins\/([^/]+)\/web\/index\.ts$/)?.[1];
    const p = mod.default ?? mod.plugin;
    if (!p || !folder) continue;
    map.set(p.id || folder, { ...p, id: p.id || folder });
  }
  return map;
})();
