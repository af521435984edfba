/**
 * HttpContext: what a route module may use of the broker. The HTTP listener is up before start-up is complete
 * (so /healthz and /readyz answer during log recovery); the broker's parts are read through getters that throw
 * until then, and http-server.ts answers 503 for every route not marked `beforeReady` meanwhile, so a route
 * (or a metric collector, which checks `ready`) never meets a missing part.
 */
import type { Registry } from 'prom-client';
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import type { Features } from '../broker/features.js';
import type { ProducerStates } from '../broker/producer-states.js';
import type { ReplicaManager } from '../broker/replica-manager.js';
import type { TopicCatalog } from '../broker/topic-catalog.js';
import type { GroupCoordinator } from '../coordinator/group-coordinator.js';
import type { TxnCoordinator } from '../coordinator/txn/txn-coordinator.js';
import type { LogStore } from '../storage/log-store.js';
import type { Scheduler } from '../storage/scheduler.js';
import type { DynamicConfigs } from '../server/admin/dynamic-configs.js';
import type { BrokerState, Endpoint } from '../server/handler.js';
import type { RequestMetrics } from '../server/request-metrics.js';
import type { BrokerParts, HttpStartup, ListenerAddress, StartupProgress } from '../server/http-attachment.js';

export class HttpContext {
  private parts: BrokerParts | undefined;
  /** Bound HTTP addresses (port 0 resolved); set once every HTTP listener is bound. */
  httpAddresses: readonly Endpoint[] = [];

  constructor(
    private readonly startup: HttpStartup,
    /** The Prometheus registry /metrics exposes: route modules register their own metrics on it (src/http/metrics/). */
    readonly metrics: Registry,
  ) {}

  /** Start-up is complete (http-server.ts calls this from the handle's serve). */
  attach(parts: BrokerParts): void {
    this.parts = parts;
  }

  /** Whether the broker's parts exist (start-up complete): collectors check this, routes need not. */
  get ready(): boolean {
    return this.parts !== undefined;
  }

  /** What /readyz reports: which start-up steps are done, and whether close() has begun. */
  get progress(): Readonly<StartupProgress> {
    return this.startup.progress;
  }

  get log(): Log {
    return this.startup.log;
  }

  /** The broker's clock and timers: take time from here, never Date.now(). */
  get scheduler(): Scheduler {
    return this.startup.scheduler;
  }

  /** When startBroker began, on the scheduler's clock (ms). */
  get startedAt(): number {
    return this.startup.startedAt;
  }

  /** Everything a Kafka request handler sees (server/handler.ts's BrokerState). */
  get broker(): BrokerState {
    return this.attached().state;
  }

  /** The live config (static overlaid with the dynamic broker configs); replaced as a whole on a change. */
  get config(): BrokerConfig {
    return this.broker.config;
  }

  get dynamicConfigs(): DynamicConfigs {
    return this.attached().dynamicConfigs;
  }

  get store(): LogStore {
    return this.broker.store;
  }

  get topics(): TopicCatalog {
    return this.broker.topics;
  }

  get groups(): GroupCoordinator {
    return this.broker.groups;
  }

  get replicaManager(): ReplicaManager {
    return this.broker.replicaManager;
  }

  get producerStates(): ProducerStates {
    return this.broker.producerStates;
  }

  get transactions(): TxnCoordinator {
    return this.broker.transactions;
  }

  get features(): Features {
    return this.broker.features;
  }

  /** The bound Kafka listeners (name, host, port), in configuration order. */
  get kafkaAddresses(): readonly ListenerAddress[] {
    return this.attached().kafkaAddresses;
  }

  /** Open client connections per listener name, and those waiting for a slot. */
  connections(): { readonly byListener: ReadonlyMap<string, number>; readonly waiting: number } {
    return this.attached().connections();
  }

  /** Requests served per API and version, their times and error codes (server/request-metrics.ts). */
  get requestMetrics(): RequestMetrics {
    return this.attached().requestMetrics;
  }

  private attached(): BrokerParts {
    if (this.parts === undefined) throw new Error('the broker is still starting');
    return this.parts;
  }
}
