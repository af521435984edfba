/**
 * What startBroker hands the HTTP listener. src/http is a layer above server, so startBroker cannot import it:
 * the caller passes a starter (BrokerOptions.httpServer: the library's startBroker and the command pass src/http's),
 * and startBroker calls it with these shapes. The listener starts before the logs load (so /healthz and /readyz
 * answer during a long recovery) and is handed the broker's parts once they exist.
 */
import type { HttpListener } from '../config/index.js';
import type { Log } from '../log.js';
import type { Scheduler } from '../storage/scheduler.js';
import type { DynamicConfigs } from './admin/dynamic-configs.js';
import type { BrokerState, Endpoint } from './handler.js';
import type { RequestMetrics } from './request-metrics.js';

/** Where start-up is: what /readyz reports. Set by startBroker as each step completes. */
export interface StartupProgress {
  /** Every partition log opened and recovered. */
  logsLoaded: boolean;
  /** Groups and committed offsets (__consumer_offsets) and transactions (__transaction_state) loaded. */
  coordinatorsLoaded: boolean;
  /** Every Kafka listener bound and accepting clients. */
  listenersBound: boolean;
  /** close() has begun. */
  closing: boolean;
}

/** The broker's parts, once start-up has made them. */
export interface BrokerParts {
  /** What every handler reads: live config, store, topics, groups, replica manager, producer state, transactions, features, log. */
  readonly state: BrokerState;
  /** The dynamic broker configs (the layers over the static config; their changes). */
  readonly dynamicConfigs: DynamicConfigs;
  /** The bound Kafka listeners, in configuration order (port 0 resolved). */
  readonly kafkaAddresses: readonly ListenerAddress[];
  /** Requests served per API and version, their times and error codes. */
  readonly requestMetrics: RequestMetrics;
  /** Open connections per listener name, and those waiting for a slot (max.connections). */
  connections(): { readonly byListener: ReadonlyMap<string, number>; readonly waiting: number };
}

export interface ListenerAddress extends Endpoint {
  readonly name: string;
}

export interface HttpStartup {
  /** gregor.http.listeners, parsed (never empty). */
  readonly listeners: readonly HttpListener[];
  readonly log: Log;
  /** The broker's clock and timers. */
  readonly scheduler: Scheduler;
  /** When startBroker began, on the scheduler's clock. */
  readonly startedAt: number;
  readonly progress: Readonly<StartupProgress>;
}

export interface HttpServerHandle {
  /** The bound address of each HTTP listener, in configuration order (port 0 resolved). */
  readonly addresses: readonly Endpoint[];
  /** Start-up is complete: routes may now use the broker's parts. */
  serve(parts: BrokerParts): void;
  close(): Promise<void>;
}

/** Binds the HTTP listeners (throws if one cannot be bound); src/http/http-server.ts's startHttpServer. */
export type HttpServerStarter = (startup: HttpStartup) => Promise<HttpServerHandle>;
