import { createContext, useContext } from 'react';

/** GET /api/config */
export interface AppConfig {
  appName: string;
  /** enabled plugin ids, in dependency order */
  plugins: string[];
  googleMapsConfigured: boolean;
  locales: string[];
  /** what each plugin's server publishes about itself (PluginContext.publicConfig) */
  pluginConfig?: Record<string, Record<string, string | number | boolean | null>>;
}

export const AppConfigContext = createContext<AppConfig>({ appName: 'Curio', plugins: [], googleMapsConfigured: false, locales: ['en', 'fr'] });

export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}

/** A plugin's public server facts, e.g. usePluginConfig('insights').videoEnabled. */
export function usePluginConfig(id: string): Record<string, string | number | boolean | null> {
  return useAppConfig().pluginConfig?.[id] ?? {};
}

/** Whether a plugin is enabled on this server (e.g. hide a link to a disabled feature). */
export function usePluginEnabled(id: string): boolean {
  return useAppConfig().plugins.includes(id);
}
