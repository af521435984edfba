// The command's logger: pino, pretty-printed for a person at a terminal, JSON lines otherwise; pino itself is
// initialised when the first line is written (log.ts). Every line goes to one LogOutput (log-output.ts).
import { deferredLog, type Log, type LogLevel } from '../log.js';
import type { LogOutput } from './log-output.js';

export type LogFormat = 'auto' | 'pretty' | 'json';
export const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** Fields of the start-up line that its message already says in words: JSON only. */
export const STARTUP_FIELDS = ['addresses', 'advertisedListeners', 'nodeId', 'clusterId', 'engine', 'logDirs', 'startupMs'] as const;
/** Fields of the broker's lines that their messages say in words (log dirs, recovery, topics, groups): JSON only. */
const FIELDS_IN_WORDS = ['logDir', 'topics', 'partitions', 'segments', 'cleanShutdown', 'ms', 'segmentsChecked', 'bytesChecked',
  'bytesTruncated', 'topicId', 'group', 'generation', 'state', 'keys', 'listener'] as const;

export interface LoggerOptions {
  level?: LogLevel;
  /** auto = pretty when stdout is a TTY. */
  format?: LogFormat;
}

/** pino-pretty is loaded only for the pretty format: JSON lines, the usual case for a service, never pay for it. */
export async function createLogger(output: LogOutput, options: LoggerOptions = {}): Promise<Log> {
  const level = options.level ?? 'info';
  const format = options.format ?? 'auto';
  const isPretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!isPretty) return deferredLog(level, (p) => p.pino({ level, base: { name: 'gregor' } }, output));
  // Each JSON line is made readable as it is written, in this thread: no stream in between to reorder or lose it.
  const { prettyFactory } = await import('pino-pretty');
  const pretty = prettyFactory({
    colorize: process.stdout.isTTY === true,
    ignore: ['pid', 'hostname', 'name', ...STARTUP_FIELDS, ...FIELDS_IN_WORDS].join(','),
    translateTime: 'SYS:HH:MM:ss.l',
  });
  return deferredLog(level, (p) => p.pino({ level, base: { name: 'gregor' } }, { write: (line: string) => output.write(pretty(line)) }));
}
