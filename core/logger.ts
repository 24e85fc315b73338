import pino, { type Logger } from 'pino';
import type { CurioConfig } from './config.ts';

/**
 * The log goes to stdout (fd 1) through pino's own destination, in batches: lines wait in memory
 * until 4 kB are there or 250 ms have passed, then leave in one write (issue 18: a write and its
 * callback per line, each /api request's log line included, were 7-9 % of a feed request's app
 * CPU in a profile; 2 % after). pino flushes what
 * waits when the process exits (a crash's last words included); `app.listen` flushes the start-up
 * lines, so that what start-up said is out before the first request.
 */
const LOG_BATCH = { minLength: 4096, periodicFlush: 250 };

export function createLogger(config: Pick<CurioConfig, 'logLevel'>): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { app: 'curio' },
      redact: { paths: ['req.headers.cookie', 'password', 'currentPassword', 'newPassword', '*.password'], remove: true },
      serializers: { err: pino.stdSerializers.err },
    },
    pino.destination({ dest: 1, sync: false, ...LOG_BATCH }),
  );
}
