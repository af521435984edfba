// Where the command's settings come from, merged lowest to highest precedence:
//   defaults < --config file < GREGOR_* environment < --override key=value < shortcut flags.
// Every source yields Kafka keys with raw string values; typing and validation happen once, in
// resolveBrokerConfig.
import { readFileSync } from 'node:fs';
import {
  brokerConfigDefinition, ConfigError, formatHttpListener, formatListener, parseHttpListeners, parseListeners, parseProperties, PropertiesSyntaxError, resolveBrokerConfig,
  type BrokerConfig,
} from '../config/index.js';

/** Environment variables of the form GREGOR_<KEY>: the key upper-cased with '.' written as '_'. */
export const ENV_PREFIX = 'GREGOR_';

export function envNameForKey(key: string): string {
  return ENV_PREFIX + key.toUpperCase().replace(/\./g, '_');
}

/** A problem with the command line or a settings source (not a config value): exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Reads a server.properties file. */
export function readConfigFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`cannot read config file ${path} (${reason})`);
  }
  try {
    return parseProperties(text);
  } catch (error) {
    if (error instanceof PropertiesSyntaxError) throw new UsageError(`config file ${path}, ${error.message}`);
    throw error;
  }
}

/**
 * Settings from GREGOR_* environment variables. Kafka keys hold only lower-case letters, digits and dots,
 * so GREGOR_LOG_RETENTION_HOURS maps back to log.retention.hours unambiguously.
 * A GREGOR_* variable that names no known key is reported and skipped.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv, onWarning: (msg: string) => void): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || value === undefined) continue;
    const key = name.slice(ENV_PREFIX.length).toLowerCase().replace(/_/g, '.');
    if (brokerConfigDefinition(key) === undefined) {
      onWarning(`Environment variable ${name} names no known config key (${key}) and is ignored`);
      continue;
    }
    settings[key] = value;
  }
  return settings;
}

/** Parses --override key=value arguments, as kafka-server-start takes them. */
export function settingsFromOverrides(overrides: readonly string[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const override of overrides) {
    const eq = override.indexOf('=');
    if (eq <= 0) throw new UsageError(`--override expects key=value, got ${JSON.stringify(override)}`);
    settings[override.slice(0, eq).trim()] = override.slice(eq + 1);
  }
  return settings;
}

/** The command serves HTTP (metrics, health, console) here unless told otherwise; startBroker() serves none. */
export const COMMAND_HTTP_LISTENERS: readonly string[] = ['http://localhost:8080'];

export interface Shortcuts {
  port?: number | undefined;
  host?: string | undefined;
  dataDir?: string | undefined;
  inMemory?: boolean | undefined;
  listeners?: string | undefined;
  advertisedListeners?: string | undefined;
  httpPort?: number | undefined;
}

/**
 * Applies the shortcut flags on top of the merged settings. --port and --host rewrite the first
 * listener (keeping its name; host and port default to the current ones); an advertised listener left
 * unset follows the listeners, so it moves with them.
 */
export function applyShortcuts(settings: Record<string, string>, shortcuts: Shortcuts): Record<string, string> {
  const out = { ...settings };
  if (shortcuts.listeners !== undefined) out['listeners'] = shortcuts.listeners;
  if (shortcuts.advertisedListeners !== undefined) out['advertised.listeners'] = shortcuts.advertisedListeners;
  if (shortcuts.port !== undefined || shortcuts.host !== undefined) {
    const current = out['listeners'] ?? (brokerConfigDefinition('listeners')!.default as string[]).join(',');
    const [first, ...rest] = parseListeners(current.split(',').filter((l) => l.trim() !== ''), {
      key: 'listeners',
      ...(out['listener.security.protocol.map'] === undefined ? {} : { securityProtocolMap: out['listener.security.protocol.map'] }),
    });
    if (first === undefined) throw new ConfigError('listeners', 'Invalid value "" for configuration listeners: expects at least one NAME://host:port');
    const moved = { name: first.name, host: shortcuts.host ?? first.host, port: shortcuts.port ?? first.port };
    out['listeners'] = [moved, ...rest].map(formatListener).join(',');
  }
  if (shortcuts.httpPort !== undefined) {
    // --http-port moves the first HTTP listener (the command's default one when the key is unset or empty).
    const current = (out['gregor.http.listeners'] ?? COMMAND_HTTP_LISTENERS.join(',')).split(',').filter((l) => l.trim() !== '');
    const [first, ...rest] = parseHttpListeners(current.length === 0 ? COMMAND_HTTP_LISTENERS : current);
    out['gregor.http.listeners'] = [{ host: first!.host, port: shortcuts.httpPort }, ...rest].map(formatHttpListener).join(',');
  }
  if (shortcuts.dataDir !== undefined) out['log.dirs'] = shortcuts.dataDir;
  if (shortcuts.inMemory === true) out['gregor.log.engine'] = 'memory';
  return out;
}

export interface SettingsSources {
  configFile?: string | undefined;
  env: NodeJS.ProcessEnv;
  overrides: readonly string[];
  shortcuts: Shortcuts;
}

/** The shortcut flag that sets each key. */
function shortcutOrigins(shortcuts: Shortcuts): Record<string, string> {
  const origins: Record<string, string> = {};
  if (shortcuts.listeners !== undefined) origins['listeners'] = '--listeners';
  if (shortcuts.port !== undefined || shortcuts.host !== undefined) origins['listeners'] = shortcuts.port !== undefined ? '--port' : '--host';
  if (shortcuts.advertisedListeners !== undefined) origins['advertised.listeners'] = '--advertised-listeners';
  if (shortcuts.dataDir !== undefined) origins['log.dirs'] = '--data-dir';
  if (shortcuts.httpPort !== undefined) origins['gregor.http.listeners'] = '--http-port';
  if (shortcuts.inMemory === true) origins['gregor.log.engine'] = '--in-memory';
  return origins;
}

/** A ConfigError about a key, its message led by the source that set the key (when one did). */
function namingOrigin(error: unknown, origins: Record<string, string>): unknown {
  if (!(error instanceof ConfigError) || !Object.hasOwn(origins, error.key)) return error;
  return new ConfigError(error.key, `${origins[error.key]}: ${error.message}`);
}

/** All settings merged in precedence order, and where each came from (a config file, a variable, a flag). */
function collectWithOrigins(sources: SettingsSources, onWarning: (msg: string) => void) {
  const origins: Record<string, string> = {};
  const layer = (settings: Record<string, string>, origin: (key: string) => string) => {
    for (const key of Object.keys(settings)) origins[key] = origin(key);
    return settings;
  };
  const merged = {
    ...(sources.configFile === undefined ? {} : layer(readConfigFile(sources.configFile), () => `config file ${sources.configFile}`)),
    ...layer(settingsFromEnv(sources.env, onWarning), (key) => `environment variable ${envNameForKey(key)}`),
    ...layer(settingsFromOverrides(sources.overrides), () => '--override'),
  };
  let settings: Record<string, string>;
  try {
    // --port and --host read the listeners set so far: an error in them is their source's.
    settings = applyShortcuts(merged, sources.shortcuts);
  } catch (error) {
    throw namingOrigin(error, origins);
  }
  return { settings, origins: { ...origins, ...shortcutOrigins(sources.shortcuts) } };
}

/** All settings merged in precedence order; warnings (unknown environment keys) go to onWarning. */
export function collectSettings(sources: SettingsSources, onWarning: (msg: string) => void): Record<string, string> {
  return collectWithOrigins(sources, onWarning).settings;
}

/**
 * The broker config from every source. A bad value is a ConfigError whose one line names where the value came
 * from: the config file's path, the environment variable's name, or the flag.
 */
export function resolveSettings(sources: SettingsSources, onWarning: (msg: string) => void): BrokerConfig {
  const { settings, origins } = collectWithOrigins(sources, onWarning);
  try {
    // The command keeps its data under ./data unless told otherwise (startBroker's default is memory).
    return resolveBrokerConfig(settings, onWarning, { logEngineWhenUnset: 'file', httpListenersWhenUnset: COMMAND_HTTP_LISTENERS });
  } catch (error) {
    throw namingOrigin(error, origins);
  }
}
