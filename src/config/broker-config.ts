// Turns server.properties-style key/value strings into one typed, validated BrokerConfig.
// Values of keys with synonyms are resolved the way Kafka's KafkaConfig resolves them, so
// config['log.retention.ms'] is always the effective retention, whichever key set it.
import { brokerConfigDefinition, brokerConfigDefinitions, brokerConfigSynonyms, type BrokerConfigKey } from './broker-configs.js';
import { ConfigError, parseConfigValue, type ConfigDefinition } from './config-types.js';
import type { ValueOf } from './define.js';
import { checkConnectionLimits } from './connection-limits.js';
import { parseListeners } from './listeners.js';
import { parseHttpListeners } from './http-listeners.js';

type Definitions = typeof brokerConfigDefinitions;
type DeclaredValues = { readonly [K in BrokerConfigKey]: ValueOf<Definitions[K]> };

/** Keys whose declared default is null but whose value here is always the resolved effective one. */
type EffectiveKeys = 'log.retention.ms' | 'log.roll.ms' | 'log.roll.jitter.ms' | 'log.flush.interval.ms' | 'log.dirs';

/**
 * The broker's configuration, keyed by Kafka's names. Values are typed (INT/LONG/SHORT/DOUBLE → number,
 * BOOLEAN → boolean, LIST and comma-split STRING keys → string[], others string) and null where Kafka's
 * value is null (unset). Effective values: log.retention.ms (-1 = forever), log.roll.ms, log.roll.jitter.ms,
 * log.flush.interval.ms and log.dirs are resolved from their synonyms; node.id and broker.id agree.
 * LONG values equal to Long.MAX_VALUE hold LONG_MAX_VALUE (2^63 as a double) and mean "no limit".
 */
export type BrokerConfig = Omit<DeclaredValues, EffectiveKeys> & {
  readonly 'log.retention.ms': number;
  readonly 'log.roll.ms': number;
  readonly 'log.roll.jitter.ms': number;
  readonly 'log.flush.interval.ms': number;
  readonly 'log.dirs': string[];
};

/** The explicit settings each resolved config came from (for DescribeConfigs sources). */
const explicitSettings = new WeakMap<BrokerConfig, Readonly<Record<string, string>>>();
/** listener.name.<listener>.<key> settings, raw: each listener's overrides of broker-wide keys (Kafka's ListenerName.configPrefix). */
const listenerSettings = new WeakMap<BrokerConfig, Readonly<Record<string, string>>>();
const LISTENER_PREFIXED = /^listener\.name\.[^.]+\../;
/**
 * Keys Kafka hands its authorizer among the broker's originals, not configs of its own (DescribeConfigs does not list
 * them): kept raw beside the config, read by security/authorizer.
 */
const AUTHORIZER_KEYS: ReadonlySet<string> = new Set(['super.users', 'allow.everyone.if.no.acl.found']);
const authorizerSettings = new WeakMap<BrokerConfig, Readonly<Record<string, string>>>();

/** gregor's defaults (see broker-configs.ts for where they differ from Kafka's). */
export function defaultBrokerConfig(): BrokerConfig {
  return resolveBrokerConfig({});
}

export type LogEngine = 'file' | 'memory';

export interface ResolveOptions {
  /**
   * The engine when neither gregor.log.engine nor log.dirs (nor log.dir) is set. Default memory: a broker started
   * in-process writes nothing unless told where, so test files running in parallel never share a directory. The
   * `gregor` command passes file (./data).
   */
  readonly logEngineWhenUnset?: LogEngine;
  /** gregor.http.listeners when it is not set. Default none (startBroker serves no HTTP unless asked); the command passes http://localhost:8080. */
  readonly httpListenersWhenUnset?: readonly string[];
}

/**
 * Parses, types and validates the given settings over gregor's defaults.
 * An unknown key is reported through onWarning and ignored; a bad value throws ConfigError
 * whose one-line message names the key and what it accepts.
 */
export function resolveBrokerConfig(
  props: Record<string, string>,
  onWarning: (msg: string) => void = () => {},
  options: ResolveOptions = {},
): BrokerConfig {
  const values: Record<string, unknown> = {};
  for (const def of Object.values(brokerConfigDefinitions)) values[def.name] = def.default;
  const explicit: Record<string, string> = {};
  const prefixed: Record<string, string> = {};
  const authorizer: Record<string, string> = {};
  for (const [key, raw] of Object.entries(props)) {
    if (AUTHORIZER_KEYS.has(key)) {
      authorizer[key] = raw;
      continue;
    }
    const def = brokerConfigDefinition(key) as ConfigDefinition | undefined;
    if (def === undefined && LISTENER_PREFIXED.test(key)) {
      prefixed[key] = raw;
      continue;
    }
    if (def === undefined) {
      onWarning(`Unknown config key ${key} is ignored`);
      continue;
    }
    values[key] = parseConfigValue(def, raw);
    explicit[key] = raw;
  }
  const isSet = (key: BrokerConfigKey) => Object.hasOwn(explicit, key);

  resolveTimeSynonyms(values);
  resolveNodeId(values, isSet);
  resolveLogDirs(values, isSet);
  if (!isSet('gregor.log.engine') && !isSet('log.dirs') && !isSet('log.dir')) {
    values['gregor.log.engine'] = options.logEngineWhenUnset ?? 'memory';
  }
  if (!isSet('gregor.http.listeners') && options.httpListenersWhenUnset !== undefined) values['gregor.http.listeners'] = [...options.httpListenersWhenUnset];
  parseHttpListeners(values['gregor.http.listeners'] as string[]);
  checkListeners(values);
  checkConsumerGroupTimeouts(values);
  checkGroupProtocols(values);
  checkConnectionLimits(values);

  const config = Object.freeze(values) as unknown as BrokerConfig;
  explicitSettings.set(config, Object.freeze({ ...explicit }));
  listenerSettings.set(config, Object.freeze(prefixed));
  authorizerSettings.set(config, Object.freeze(authorizer));
  return config;
}

/** The authorizer's own keys as given (super.users, allow.everyone.if.no.acl.found), raw. */
export function authorizerSettingsOf(config: BrokerConfig): Readonly<Record<string, string>> {
  return authorizerSettings.get(config) ?? {};
}

/** Every listener.name.<name>.<key> setting given, by its full key (raw). */
export function allListenerPrefixedSettings(config: BrokerConfig): Readonly<Record<string, string>> {
  return listenerSettings.get(config) ?? {};
}

/**
 * The listener.name.<name>.<key> settings of one listener, keyed by <key> (raw strings; the reader parses and checks
 * them). Kafka's prefix holds the listener name lower-cased: listener.name.ssl.ssl.keystore.location.
 */
export function listenerPrefixedSettings(config: BrokerConfig, listenerName: string): Readonly<Record<string, string>> {
  const prefix = `listener.name.${listenerName.toLowerCase()}.`;
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(allListenerPrefixedSettings(config))) {
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = raw;
  }
  return out;
}

/** One per-listener setting as given (listener.name.<listener, lower-cased>.<key>, Kafka's ListenerName.configPrefix), or undefined. */
export function listenerSetting(config: BrokerConfig, listenerName: string, key: string): string | undefined {
  return listenerPrefixedSettings(config, listenerName)[key];
}

/** The settings that were given explicitly (file, environment, flags) for a resolved config, raw. */
export function explicitBrokerSettings(config: BrokerConfig): Readonly<Record<string, string>> {
  return explicitSettings.get(config) ?? {};
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

function resolveTimeSynonyms(values: Record<string, unknown>): void {
  // log.retention.ms, else log.retention.minutes, else log.retention.hours; negative means forever (-1).
  let retention: number;
  let retentionKey: BrokerConfigKey;
  if (values['log.retention.ms'] !== null) {
    retention = values['log.retention.ms'] as number;
    retentionKey = 'log.retention.ms';
  } else if (values['log.retention.minutes'] !== null) {
    retention = (values['log.retention.minutes'] as number) * MINUTE_MS;
    retentionKey = 'log.retention.minutes';
  } else {
    retention = (values['log.retention.hours'] as number) * HOUR_MS;
    retentionKey = 'log.retention.hours';
  }
  if (retention < 0) retention = -1;
  if (retention === 0) {
    throw new ConfigError(retentionKey, `Invalid value 0 for configuration ${retentionKey}: ` +
      'expects a retention of at least 1 ms, or -1 for unlimited');
  }
  values['log.retention.ms'] = retention;

  values['log.roll.ms'] = (values['log.roll.ms'] as number | null) ?? (values['log.roll.hours'] as number) * HOUR_MS;
  if ((values['log.roll.ms'] as number) < 1) {
    throw new ConfigError('log.roll.ms', `Invalid value ${values['log.roll.ms']} for configuration log.roll.ms: expects a 64-bit integer in [1,...]`);
  }
  values['log.roll.jitter.ms'] =
    (values['log.roll.jitter.ms'] as number | null) ?? (values['log.roll.jitter.hours'] as number) * HOUR_MS;
  if ((values['log.roll.jitter.ms'] as number) < 0) {
    throw new ConfigError('log.roll.jitter.ms', `Invalid value ${values['log.roll.jitter.ms']} for configuration log.roll.jitter.ms: expects a 64-bit integer in [0,...]`);
  }
  values['log.flush.interval.ms'] =
    (values['log.flush.interval.ms'] as number | null) ?? values['log.flush.scheduler.interval.ms'];
}

function resolveNodeId(values: Record<string, unknown>, isSet: (key: BrokerConfigKey) => boolean): void {
  const nodeSet = isSet('node.id');
  const brokerSet = isSet('broker.id');
  if (nodeSet && brokerSet && values['node.id'] !== values['broker.id']) {
    throw new ConfigError('broker.id', `Invalid value ${values['broker.id']} for configuration broker.id: ` +
      `expects the same id as node.id (${values['node.id']})`);
  }
  if (brokerSet && !nodeSet) {
    if ((values['broker.id'] as number) < 0) {
      throw new ConfigError('broker.id', `Invalid value ${values['broker.id']} for configuration broker.id: expects a 32-bit integer in [0,...]`);
    }
    values['node.id'] = values['broker.id'];
  } else {
    values['broker.id'] = values['node.id'];
  }
}

function resolveLogDirs(values: Record<string, unknown>, isSet: (key: BrokerConfigKey) => boolean): void {
  // Kafka reads log.dirs, and log.dir only when log.dirs is unset; gregor's default log.dirs is ./data.
  if (isSet('log.dir') && !isSet('log.dirs')) values['log.dirs'] = values['log.dir'];
  const dirs = (values['log.dirs'] as string[] | null)?.filter((dir) => dir !== '') ?? [];
  values['log.dirs'] = dirs;
  if (dirs.length === 0) {
    const key = isSet('log.dirs') ? 'log.dirs' : 'log.dir';
    throw new ConfigError(key, `Invalid value "" for configuration ${key}: expects at least one directory`);
  }
}

function checkListeners(values: Record<string, unknown>): void {
  const securityProtocolMap = values['listener.security.protocol.map'] as string;
  const listeners = parseListeners(values['listeners'] as string[], { key: 'listeners', securityProtocolMap });
  if (listeners.length === 0) {
    throw new ConfigError('listeners', 'Invalid value "" for configuration listeners: expects at least one NAME://host:port');
  }
  const advertisedValues = values['advertised.listeners'] as string[] | null;
  // An empty advertised.listeners means the same as unset: advertise the listeners.
  if (advertisedValues !== null && advertisedValues.length === 0) values['advertised.listeners'] = null;
  if (advertisedValues === null || advertisedValues.length === 0) return;
  const advertised = parseListeners(advertisedValues, { key: 'advertised.listeners', securityProtocolMap });
  for (const listener of advertised) {
    if (listener.host === '0.0.0.0' || listener.host === '::') {
      throw new ConfigError('advertised.listeners', `Invalid value ${JSON.stringify(advertisedValues.join(','))} for configuration ` +
        `advertised.listeners: cannot advertise the non-routable address ${listener.host}; give a host clients can reach`);
    }
    if (!listeners.some((l) => l.name === listener.name)) {
      throw new ConfigError('advertised.listeners', `Invalid value ${JSON.stringify(advertisedValues.join(','))} for configuration ` +
        `advertised.listeners: listener ${listener.name} is not among the names in listeners`);
    }
  }
}

/** Kafka's start-up checks that each consumer-group default lies within its own bounds. */
function checkConsumerGroupTimeouts(values: Record<string, unknown>): void {
  const within = (key: string, minKey: string, maxKey: string) => {
    const value = values[key] as number;
    const min = values[minKey] as number;
    const max = values[maxKey] as number;
    if (value < min || value > max) {
      throw new ConfigError(key, `Invalid value ${value} for configuration ${key}: expects a value between ` +
        `${minKey} (${min}) and ${maxKey} (${max})`);
    }
  };
  within('group.consumer.session.timeout.ms', 'group.consumer.min.session.timeout.ms', 'group.consumer.max.session.timeout.ms');
  within('group.consumer.heartbeat.interval.ms', 'group.consumer.min.heartbeat.interval.ms', 'group.consumer.max.heartbeat.interval.ms');
  const heartbeat = values['group.consumer.heartbeat.interval.ms'] as number;
  const session = values['group.consumer.session.timeout.ms'] as number;
  if (heartbeat >= session) {
    throw new ConfigError('group.consumer.heartbeat.interval.ms', `Invalid value ${heartbeat} for configuration ` +
      `group.consumer.heartbeat.interval.ms: expects less than group.consumer.session.timeout.ms (${session})`);
  }
}

/** Kafka's KafkaConfig refuses a protocol list without classic: the broker does not start. */
function checkGroupProtocols(values: Record<string, unknown>): void {
  const protocols = values['group.coordinator.rebalance.protocols'] as string[];
  if (!protocols.includes('classic')) {
    throw new ConfigError('group.coordinator.rebalance.protocols', `Invalid value ${protocols.join(',')} for configuration ` +
      "group.coordinator.rebalance.protocols: Disabling the 'classic' protocol is not supported.");
  }
}

/** Broker configs set at run time, raw text by Kafka name (describe.ts's DynamicConfigLayers has this shape). */
export interface DynamicBrokerSettings {
  /** This node's own dynamic configs: the highest precedence. */
  readonly perBroker: ReadonlyMap<string, string>;
  /** The cluster-wide dynamic defaults, under the per-broker ones. */
  readonly clusterDefault: ReadonlyMap<string, string>;
}

/**
 * Whether a dynamic setting of `key` takes effect at the given level, as Kafka's DynamicBrokerConfig decides when
 * it loads the layers: unknown and read-only keys, per-broker keys set as a cluster default, and values that do
 * not parse are ignored (they stay stored and described).
 */
export function dynamicSettingApplies(key: string, raw: string, level: 'perBroker' | 'clusterDefault'): boolean {
  const def = brokerConfigDefinition(key) as ConfigDefinition | undefined;
  if (def === undefined || def.updateMode === 'read-only') return false;
  if (level === 'clusterDefault' && def.updateMode === 'per-broker') return false;
  try {
    parseConfigValue(def, raw);
    return true;
  } catch {
    return false;
  }
}

/**
 * The live broker config: the static settings, overlaid with the cluster-default layer, then the per-broker
 * layer. A dynamic key replaces every synonym below it (a dynamic log.retention.hours wins over a static
 * log.retention.ms), as Kafka's overrideProps does. Throws ConfigError when the merged settings are invalid
 * together. The result still reports only the static settings as explicit (DescribeConfigs sources).
 */
export function effectiveBrokerConfig(staticConfig: BrokerConfig, dynamic: DynamicBrokerSettings): BrokerConfig {
  const staticSettings = explicitBrokerSettings(staticConfig);
  const props: Record<string, string> = { ...staticSettings };
  const overlay = (layer: ReadonlyMap<string, string>, level: 'perBroker' | 'clusterDefault'): void => {
    for (const [key, raw] of layer) {
      if (!dynamicSettingApplies(key, raw, level)) continue;
      for (const synonym of brokerConfigSynonyms(key)) delete props[synonym];
      props[key] = raw;
    }
  };
  overlay(dynamic.clusterDefault, 'clusterDefault');
  overlay(dynamic.perBroker, 'perBroker');
  // The engine and the HTTP listeners are read-only: the static config's choice stands, whether set or chosen for an unset one.
  const config = resolveBrokerConfig(props, undefined, {
    logEngineWhenUnset: staticConfig['gregor.log.engine'] as LogEngine, httpListenersWhenUnset: staticConfig['gregor.http.listeners'],
  });
  explicitSettings.set(config, staticSettings);
  listenerSettings.set(config, listenerSettings.get(staticConfig) ?? {});
  authorizerSettings.set(config, authorizerSettingsOf(staticConfig));
  return config;
}
