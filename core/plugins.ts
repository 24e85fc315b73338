import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CODE_ROOT, moduleFile } from './config.ts';
import type { PluginManifest, PluginServer } from './plugin-api.ts';

export class PluginLoadError extends Error {}

export interface LoadedPlugin {
  manifest: PluginManifest;
  dir: string;
  enabled: boolean;
}

export const PLUGINS_DIR = path.join(CODE_ROOT, 'plugins');

/** Reads every plugins/<id>/index.ts manifest. */
export async function discoverPlugins(dir = PLUGINS_DIR): Promise<PluginManifest[]> {
  const index = moduleFile('index.ts');
  const ids = fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, index))).sort();
  const out: PluginManifest[] = [];
  for (const id of ids) {
    const mod = await import(pathToFileURL(path.join(dir, id, index)).href);
    const m: PluginManifest = mod.default;
    if (!m || m.id !== id) throw new PluginLoadError(`plugins/${id}/index.ts must export default a manifest with id '${id}'`);
    out.push(m);
  }
  return out;
}

/** Orders plugins so that each comes after what it depends on (stable by id). */
export function sortPlugins(manifests: PluginManifest[]): PluginManifest[] {
  const byId = new Map(manifests.map((m) => [m.id, m]));
  const out: PluginManifest[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (m: PluginManifest, trail: string[]) => {
    const s = state.get(m.id);
    if (s === 'done') return;
    if (s === 'visiting') throw new PluginLoadError(`Plugin dependency cycle: ${[...trail, m.id].join(' -> ')}`);
    state.set(m.id, 'visiting');
    for (const dep of [...(m.dependsOn ?? []), ...(m.optionalDependsOn ?? [])].sort()) {
      const d = byId.get(dep);
      if (d) visit(d, [...trail, m.id]);
    }
    state.set(m.id, 'done');
    out.push(m);
  };
  for (const m of [...manifests].sort((a, b) => a.id.localeCompare(b.id))) visit(m, []);
  return out;
}

/**
 * All plugins in dependency order, with their enabled flag. Fails with a clear message when an
 * enabled plugin needs one that is disabled or missing, or when config names an unknown plugin.
 */
export function resolvePlugins(manifests: PluginManifest[], disabled: string[]): LoadedPlugin[] {
  const known = new Set(manifests.map((m) => m.id));
  const unknown = disabled.filter((d) => !known.has(d));
  if (unknown.length) {
    throw new PluginLoadError(`plugins.disabled names unknown plugin(s): ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  }
  const off = new Set(disabled);
  const problems: string[] = [];
  for (const m of manifests) {
    if (off.has(m.id)) continue;
    for (const dep of m.dependsOn ?? []) {
      if (!known.has(dep)) problems.push(`Plugin '${m.id}' depends on '${dep}', which does not exist`);
      else if (off.has(dep)) problems.push(`Plugin '${m.id}' depends on '${dep}', which is disabled: disable '${m.id}' too or enable '${dep}'`);
    }
  }
  if (problems.length) throw new PluginLoadError(problems.join('\n'));
  return sortPlugins(manifests).map((m) => ({ manifest: m, dir: path.join(PLUGINS_DIR, m.id), enabled: !off.has(m.id) }));
}

export async function loadServerModule(p: LoadedPlugin): Promise<PluginServer | null> {
  const file = path.join(p.dir, 'server', moduleFile('index.ts'));
  if (!fs.existsSync(file)) return null;
  const mod = await import(pathToFileURL(file).href);
  return mod.default as PluginServer;
}
