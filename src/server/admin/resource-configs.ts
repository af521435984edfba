/**
 * Configs of resources that are neither topics nor brokers: GROUP (per group id) and CLIENT_METRICS (per
 * subscription name), as AlterConfigs and IncrementalAlterConfigs set them. Each resource holds raw text by
 * Kafka name; a resource left without configs is removed (Kafka then no longer lists it). Every change is
 * stored (resource-config-store.ts). Deleting a group leaves its configs, as Kafka 4.3.1 does.
 */
import type { BrokerConfig } from '../../config/broker-config.js';
import { resolveGroupConfig, type GroupConfigValues } from '../../config/group-configs.js';
import type { BrokerState } from '../handler.js';
import { memoryResourceConfigStore, type ResourceConfigStore, type StoredResourceConfigs } from './resource-config-store.js';

export type ResourceKind = 'groups' | 'clientMetrics';

const NONE: ReadonlyMap<string, string> = new Map();

export class ResourceConfigs {
  private readonly layers: Record<ResourceKind, Map<string, Map<string, string>>> = { groups: new Map(), clientMetrics: new Map() };
  /** Saves run one after another, each with the layers as they were when it was asked for. */
  private saving: Promise<void> = Promise.resolve();
  /** Saves asked for and not done: a shared store's notice meanwhile may predate them, and is left for the last one's. */
  private pendingSaves = 0;
  /** Resolved group configs, until the group's configs or the live broker config change (a clamp warns once). */
  private readonly resolved = new Map<string, { readonly broker: BrokerConfig; readonly values: GroupConfigValues }>();

  private constructor(private readonly store: ResourceConfigStore) {}

  static async open(store: ResourceConfigStore = memoryResourceConfigStore()): Promise<ResourceConfigs> {
    const configs = new ResourceConfigs(store);
    const stored = await store.load();
    if (stored !== undefined) configs.take(stored);
    // Cluster mode: a group's or subscription's configs changed through another broker apply here too.
    store.watch?.((next) => {
      if (configs.pendingSaves > 0) return;
      configs.take(next);
      configs.resolved.clear();
    });
    return configs;
  }

  private take(stored: StoredResourceConfigs): void {
    for (const kind of ['groups', 'clientMetrics'] as const) {
      this.layers[kind].clear();
      for (const [name, values] of stored[kind]) if (values.size > 0) this.layers[kind].set(name, new Map(values));
    }
  }

  /** One resource's configs (empty when it has none). */
  get(kind: ResourceKind, name: string): ReadonlyMap<string, string> {
    return this.layers[kind].get(name) ?? NONE;
  }

  /** The names of the resources of a kind that hold configs, in the order they were first given configs. */
  names(kind: ResourceKind): string[] {
    return [...this.layers[kind].keys()];
  }

  /** Replaces one resource's configs; durable when the promise resolves. */
  replace(kind: ResourceKind, name: string, next: Readonly<Record<string, string>>): Promise<void> {
    const entries = Object.entries(next);
    const before = { groups: new Map(this.layers.groups), clientMetrics: new Map(this.layers.clientMetrics) };
    if (kind === 'groups') this.resolved.delete(name);
    if (entries.length === 0) this.layers[kind].delete(name);
    else this.layers[kind].set(name, new Map(entries));
    const snapshot = { groups: new Map(this.layers.groups), clientMetrics: new Map(this.layers.clientMetrics) };
    this.pendingSaves++;
    this.saving = this.saving.catch(() => undefined).then(() => this.store.save(snapshot, before)).finally(() => { this.pendingSaves--; });
    return this.saving;
  }

  /** A group's effective configs over the live broker config: the lookup the group coordinators read. */
  groupConfig(groupId: string, broker: BrokerConfig, warn?: (message: string) => void): GroupConfigValues {
    const cached = this.resolved.get(groupId);
    if (cached !== undefined && cached.broker === broker) return cached.values;
    const values = resolveGroupConfig(groupId, this.get('groups', groupId), broker, warn);
    if (this.layers.groups.has(groupId)) this.resolved.set(groupId, { broker, values });
    return values;
  }
}

const byBroker = new WeakMap<BrokerState, ResourceConfigs>();

/** Ties a broker's resource configs to its state (startBroker does this before serving requests). */
export function attachResourceConfigs(broker: BrokerState, configs: ResourceConfigs): void {
  byBroker.set(broker, configs);
}

export function resourceConfigs(broker: BrokerState): ResourceConfigs {
  const configs = byBroker.get(broker);
  if (configs === undefined) throw new Error('no resource configs are attached to this broker');
  return configs;
}
