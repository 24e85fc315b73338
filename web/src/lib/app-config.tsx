import { createContext, useContext } from 'react';

/** GET /api/config */
export interface AppConfig {
  appName: string;
  /** enabled plugin ids, in dependency order */
  plugins: string[];
  googleMapsConfigured: boolean;
  locales: string[];
}

export const AppConfigContext = createContext<AppConfig>({ appName: 'Curio', plugins: [], googleMapsConfigured: false, locales: ['en', 'fr'] });

export function useAppConfig(): AppConfig {
  return useContext(AppConfigContext);
}

/** Whether a plugin is enabled on this server (e.g. hide a link to a disabled feature). */
export function usePluginEnabled(id: string): boolean {
  return useAppConfig().plugins.includes(id);
}
