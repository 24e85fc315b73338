import pino, { type Logger } from 'pino';
import type { CurioConfig } from './config.ts';

export function createLogger(config: Pick<CurioConfig, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    base: { app: 'curio' },
    redact: { paths: ['req.headers.cookie', 'password', 'currentPassword', 'newPassword', '*.password'], remove: true },
    serializers: { err: pino.stdSerializers.err },
  });
}
