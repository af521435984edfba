/**
 * Configs changed at run time, per broker: dynamic broker configs of this node, cluster-wide dynamic
 * defaults, and logger levels. The two config layers are overlaid on the static config
 * (effectiveBrokerConfig) into the live BrokerConfig, which replaces BrokerState.config at once; the
 * components that captured values at start-up are told through onChange. Both layers are stored
 * (dynamic-config-store.ts); logger levels live in memory only, as in Kafka.
 */
import { effectiveBrokerConfig, type BrokerConfig } from '../../config/broker-config.js';
import type { DynamicConfigLayers } from '../../config/index.js';
import type { BrokerState } from '../handler.js';
import { memoryDynamicConfigStore, type DynamicConfigStore, type StoredDynamicConfigs } from './dynamic-config-store.js';

export type DynamicLevel = 'perBroker' | 'clusterDefault';

export type ConfigChangeListener = (next: BrokerConfig, previous: BrokerConfig) => void | Promise<void>;

export class DynamicConfigs implements DynamicConfigLayers {
  /** BROKER resource named by this node's id. */
  readonly perBroker = new Map<string, string>();
  /** BROKER resource with the empty name: defaults for every broker. */
  readonly clusterDefault = new Map<string, string>();
  /** BROKER_LOGGER levels set with IncrementalAlterConfigs (never stored). */
  readonly loggers = new Map<string, string>();
  private live: BrokerConfig;
  private readonly listeners: ConfigChangeListener[] = [];
  /** Saves run one after another, each with the layers as they were when it was asked for. */
  private saving: Promise<void> = Promise.resolve();
  /** Saves asked for and not done: a shared store's notice meanwhile may predate them, and is left for the last one's. */
  private pendingSaves = 0;

  private constructor(readonly staticConfig: BrokerConfig, private readonly store: DynamicConfigStore) {
    this.live = staticConfig;
  }

  /**
   * Reads the stored layers and computes the live config. Nothing stored yet: the cluster default holds the
   * static min.insync.replicas, as a Kafka 4.x controller writes it when the cluster is formed (ELR).
   * Stored layers whose merge no longer resolves (a static change since) stop start-up with a one-line error.
   */
  static async open(staticConfig: BrokerConfig, store: DynamicConfigStore = memoryDynamicConfigStore()): Promise<DynamicConfigs> {
    const configs = new DynamicConfigs(staticConfig, store);
    const stored = await store.load();
    if (stored === undefined) {
      for (const [key, value] of initialClusterDefault(staticConfig)) configs.clusterDefault.set(key, value);
    } else {
      for (const [key, value] of stored.perBroker) configs.perBroker.set(key, value);
      for (const [key, value] of stored.clusterDefault) configs.clusterDefault.set(key, value);
    }
    try {
      configs.live = effectiveBrokerConfig(staticConfig, configs);
    } catch (error) {
      throw new Error(`dynamic broker configs do not apply over the static ones: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Cluster mode: a change made through another broker (the cluster default, or this broker's own) applies here.
    store.watch?.((next) => configs.follow(next));
    return configs;
  }

  /** Takes both layers as the shared store holds them now: the live config and its listeners follow, as after replace. */
  private async follow(stored: StoredDynamicConfigs): Promise<void> {
    if (this.pendingSaves > 0) return;
    if (sameLayer(stored.perBroker, this.perBroker) && sameLayer(stored.clusterDefault, this.clusterDefault)) return;
    const config = effectiveBrokerConfig(this.staticConfig, stored);
    for (const level of ['perBroker', 'clusterDefault'] as const) {
      this[level].clear();
      for (const [key, value] of stored[level]) this[level].set(key, value);
    }
    const previous = this.live;
    this.live = config;
    await Promise.all(this.listeners.map((listener) => listener(config, previous)));
  }

  /** The live config: static settings overlaid with both dynamic layers. */
  get config(): BrokerConfig {
    return this.live;
  }

  /** Called with the new and the previous live config after every change that took effect. */
  onChange(listener: ConfigChangeListener): void {
    this.listeners.push(listener);
  }

  /** The live config `level` would give if replaced by `next` (throws ConfigError when they do not resolve together). */
  preview(level: DynamicLevel, next: Readonly<Record<string, string>>): BrokerConfig {
    const layers = { perBroker: this.perBroker, clusterDefault: this.clusterDefault, [level]: new Map(Object.entries(next)) };
    return effectiveBrokerConfig(this.staticConfig, layers);
  }

  /**
   * Replaces one layer: the live config changes at once and every listener is started before this returns;
   * the promise resolves once the listeners are done and the layers are durable.
   */
  replace(level: DynamicLevel, next: Readonly<Record<string, string>>): Promise<void> {
    const config = this.preview(level, next);
    const before = { perBroker: new Map(this.perBroker), clusterDefault: new Map(this.clusterDefault) };
    const target = this[level];
    target.clear();
    for (const [key, value] of Object.entries(next)) target.set(key, value);
    const previous = this.live;
    this.live = config;
    const applied = Promise.all(this.listeners.map((listener) => listener(config, previous)));
    const snapshot = { perBroker: new Map(this.perBroker), clusterDefault: new Map(this.clusterDefault) };
    this.pendingSaves++;
    this.saving = this.saving.catch(() => undefined).then(() => this.store.save(snapshot, before)).finally(() => { this.pendingSaves--; });
    return Promise.all([applied, this.saving]).then(() => undefined);
  }
}

/**
 * The cluster default a new cluster starts with: the static min.insync.replicas, as a Kafka 4.x controller writes it
 * when the cluster is formed (ELR). A single broker holds it in memory until a change is stored; cluster mode writes
 * it to etcd once, when the first broker of the cluster starts.
 */
export function initialClusterDefault(staticConfig: BrokerConfig): Map<string, string> {
  return new Map([['min.insync.replicas', String(staticConfig['min.insync.replicas'])]]);
}

function sameLayer(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

const byBroker = new WeakMap<BrokerState, DynamicConfigs>();

/** Ties a broker's dynamic configs to its state (startBroker does this before serving requests). */
export function attachDynamicConfigs(broker: BrokerState, configs: DynamicConfigs): void {
  byBroker.set(broker, configs);
}

export function dynamicConfigs(broker: BrokerState): DynamicConfigs {
  const configs = byBroker.get(broker);
  if (configs === undefined) throw new Error('no dynamic configs are attached to this broker');
  return configs;
}

/** Thread pools Kafka resizes at run time; each step may at most halve or double the count. */
const THREAD_POOL_KEYS = ['num.io.threads', 'num.replica.fetchers', 'num.recovery.threads.per.data.dir', 'background.threads'];

/**
 * What Kafka's reconfigurables refuse in a change from `current` to `next` (thread counts that are not at
 * least 1, or less than half or more than double the current count), in Kafka's words; null when none.
 */
export function reconfigurationProblem(current: BrokerConfig, next: BrokerConfig): string | null {
  const before = current as unknown as Record<string, unknown>;
  const after = next as unknown as Record<string, unknown>;
  const wrapped = (problem: string) => `Invalid value org.apache.kafka.common.config.ConfigException: ${problem} ` +
    'for configuration Invalid dynamic configuration';
  for (const key of THREAD_POOL_KEYS) {
    const oldValue = before[key];
    const newValue = after[key];
    if (typeof oldValue !== 'number' || typeof newValue !== 'number' || oldValue === newValue) continue;
    const failed = `Dynamic thread count update validation failed for ${key}=${newValue}`;
    if (newValue <= 0) return wrapped(`${failed}, value should be at least 1`);
    if (newValue < Math.trunc(oldValue / 2)) return wrapped(`${failed}, value should be at least half the current value ${oldValue}`);
    if (newValue > oldValue * 2) return wrapped(`${failed}, value should not be greater than double the current value ${oldValue}`);
  }
  const oldThreads = current['log.cleaner.threads'];
  const newThreads = next['log.cleaner.threads'];
  if (oldThreads !== newThreads) {
    if (newThreads < 1) return wrapped('Log cleaner threads should be at least 1');
    if (newThreads < Math.trunc(oldThreads / 2)) return wrapped(`Log cleaner threads cannot be reduced to less than half the current value ${oldThreads}`);
    if (newThreads > oldThreads * 2) return wrapped(`Log cleaner threads cannot be increased to more than double the current value ${oldThreads}`);
  }
  return null;
}
