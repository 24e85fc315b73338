/** Shared start-up for command-line scripts: config, database, all plugins migrated. */
import { loadConfig, ConfigError } from '../core/config.ts';
import { DatabaseLockedError } from '../core/db.ts';
import { PluginLoadError } from '../core/plugins.ts';
import { createApp, type CurioApp } from '../core/app.ts';

export async function withApp<T>(fn: (app: CurioApp) => Promise<T>): Promise<T> {
  let app: CurioApp;
  try {
    const config = loadConfig({ logLevel: process.env.LOG_LEVEL ?? 'warn' });
    // createApp migrates every plugin first, so scripts work on a fresh DATA_DIR.
    app = await createApp({ config, startJobs: false });
  } catch (e) {
    if (e instanceof ConfigError || e instanceof PluginLoadError || e instanceof DatabaseLockedError || /^Invalid configuration/.test((e as Error).message)) {
      console.error((e as Error).message);
      process.exit(1);
    }
    throw e;
  }
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}
