// The command's logger: pino, pretty-printed for a person at a terminal, JSON lines otherwise; pino itself is
// initialised when the first line is written (log.ts).
import { deferredLog, type Log, type LogLevel } from '../log.js';

export type LogFormat = 'auto' | 'pretty' | 'json';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Fields of the start-up line that its message already says in words: JSON only. */
export const STARTUP_FIELDS = ['addresses', 'advertisedListeners', 'nodeId', 'clusterId', 'engine', 'logDirs', 'startupMs'] as const;

export interface LoggerOptions {
  level?: LogLevel;
  /** auto = pretty when stdout is a TTY. */
  format?: LogFormat;
}

/** pino-pretty is loaded only for the pretty format: JSON lines, the usual case for a service, never pay for it. */
export async function createLogger(options: LoggerOptions = {}): Promise<Log> {
  const level = options.level ?? 'info';
  const format = options.format ?? 'auto';
  const isPretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!isPretty) return deferredLog(level, (p) => p.pino({ level, base: { name: 'gregor' } }));
  // The pretty stream runs in this thread (no worker): lines are written before the process exits.
  const { default: pretty } = await import('pino-pretty');
  const stream = pretty({
    colorize: process.stdout.isTTY === true,
    sync: true,
    ignore: ['pid', 'hostname', 'name', ...STARTUP_FIELDS].join(','),
    translateTime: 'SYS:HH:MM:ss.l',
  });
  return deferredLog(level, (p) => p.pino({ level, base: { name: 'gregor' } }, stream));
}
