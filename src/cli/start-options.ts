/**
 * The start command's options as typed, and a parser for the usual command lines that needs no yargs.
 *
 * Loading yargs costs an idle broker ~4 MB of resident memory (its code and what it pulls from Node),
 * so a command line made only of plain `--option value` pairs is read here, and anything else (help,
 * version, --list-configs, an unknown or repeated option, a value yargs would read differently, a bad
 * choice) goes to the yargs command, which answers it as before. A test checks that both read every
 * accepted command line alike.
 */
import type { Level } from 'pino';
import { UsageError } from './config-sources.js';
import { LOG_LEVELS, type LogFormat } from './logger.js';
import type { StartArguments } from './run-broker.js';

export const LOG_FORMATS: readonly LogFormat[] = ['auto', 'pretty', 'json'];

/** The start options' values as the command line gave them (defaults applied for the two log options). */
export interface StartOptions {
  config?: string;
  override?: string[];
  port?: string;
  'http-port'?: string;
  host?: string;
  listeners?: string;
  'advertised-listeners'?: string;
  'data-dir'?: string;
  'in-memory'?: boolean;
  'log-level': string;
  'log-format': string;
}

type StringOption = 'config' | 'port' | 'http-port' | 'host' | 'listeners' | 'advertised-listeners' | 'data-dir' | 'log-level' | 'log-format';

const STRING_OPTIONS: ReadonlyMap<string, StringOption> = new Map<string, StringOption>([
  ['config', 'config'], ['c', 'config'], ['port', 'port'], ['p', 'port'], ['http-port', 'http-port'], ['host', 'host'], ['listeners', 'listeners'],
  ['advertised-listeners', 'advertised-listeners'], ['data-dir', 'data-dir'], ['d', 'data-dir'],
  ['log-level', 'log-level'], ['log-format', 'log-format'],
]);
const OVERRIDE_NAMES = new Set(['override', 'o']);
const CHOICES: Partial<Record<StringOption, readonly string[]>> = { 'log-level': LOG_LEVELS, 'log-format': LOG_FORMATS };

/**
 * Reads `[start] (--name value | --name=value | -x value | --in-memory)*`, or returns null for yargs to
 * read: whatever this parser is not sure to read exactly as yargs does.
 */
export function parseStartFast(argv: readonly string[]): StartOptions | null {
  const options: StartOptions = { 'log-level': 'info', 'log-format': 'auto' };
  const seen = new Set<string>();
  let i = argv[0] === 'start' ? 1 : 0;
  while (i < argv.length) {
    const token = argv[i]!;
    let name: string;
    let value: string | undefined;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      if (eq >= 0) value = token.slice(eq + 1);
    } else if (/^-[a-zA-Z]$/.test(token)) {
      name = token.slice(1);
    } else {
      return null;
    }
    i++;
    if (name === 'in-memory' && value === undefined) {
      if (seen.has(name)) return null;
      seen.add(name);
      options['in-memory'] = true;
      continue;
    }
    const key = STRING_OPTIONS.get(name) ?? (OVERRIDE_NAMES.has(name) ? 'override' : undefined);
    if (key === undefined) return null;
    if (value === undefined) {
      // A separate value: yargs reads a following token that starts with '-' as an option, and an
      // array option takes every plain token after it; leave both to yargs.
      value = argv[i];
      if (value === undefined || value.startsWith('-')) return null;
      i++;
      if (key === 'override' && i < argv.length && !argv[i]!.startsWith('-')) return null;
    }
    if (value === '') return null;
    if (key === 'override') {
      (options.override ??= []).push(value);
      continue;
    }
    if (seen.has(key) || CHOICES[key]?.includes(value) === false) return null;
    seen.add(key);
    options[key] = value;
  }
  return options;
}

/** What runBroker takes; a bad --port or --http-port is a UsageError. */
export function toStartArguments(options: StartOptions): StartArguments {
  return {
    configFile: options.config,
    overrides: options.override ?? [],
    shortcuts: {
      port: parsePort(options.port, '--port'),
      httpPort: parsePort(options['http-port'], '--http-port'),
      host: options.host,
      listeners: options.listeners,
      advertisedListeners: options['advertised-listeners'],
      dataDir: options['data-dir'],
      inMemory: options['in-memory'],
    },
    logLevel: options['log-level'] as Level | 'silent',
    logFormat: options['log-format'] as LogFormat,
  };
}

function parsePort(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const port = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(`Invalid value ${JSON.stringify(text)} for ${flag}: expects a port number in [0,...,65535] (0 = any free port)`);
  }
  return port;
}
