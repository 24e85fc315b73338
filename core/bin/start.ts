import { createApp } from '../app.ts';
import { ConfigError, applyHeapPolicy } from '../config.ts';
import { DatabaseLockedError } from '../db.ts';
import { PluginLoadError } from '../plugins.ts';

async function main() {
  let app;
  try {
    app = await createApp();
  } catch (e) {
    if (e instanceof ConfigError || e instanceof PluginLoadError || e instanceof DatabaseLockedError || /^Invalid configuration/.test((e as Error).message)) {
      console.error(`Curio cannot start: ${(e as Error).message}`);
      process.exit(1);
    }
    throw e;
  }
  applyHeapPolicy(app.config);
  if (app.config.seedOnStart) {
    const seeded = await app.seed({ onlyFirstTime: true });
    if (seeded.length) app.log.info({ seeded }, 'sample data loaded on first start');
  }
  const url = await app.listen();
  app.log.info({ url, database: app.db.kind, plugins: [...app.enabled] }, `Curio is running at ${url}`);
  console.log(`\n  Curio is running at ${url}  (database: ${app.db.kind === 'pglite' ? `embedded, ${app.config.dataDir}` : 'PostgreSQL'})\n`);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // close() cuts what is left after drainDelayMs + drainTimeoutMs; this is only the last resort
    const force = setTimeout(() => process.exit(1), (app.config.drainDelayMs ?? 0) + (app.config.drainTimeoutMs ?? 30_000) + 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
