/**
 * What a handler is, and what it sees. Handlers are registered in handlers/index.ts only.
 *
 * Handlers are invoked synchronously in arrival order: a handler that changes state must start that
 * change before its first await, so pipelined requests (5 Produce requests of an idempotent producer)
 * take effect in order. Responses are written in request order whatever order handlers finish in.
 */
import type { BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';
import type { ApiDescriptor } from '../protocol/generated/index.js';
import type { LogStore } from '../storage/log-store.js';
import type { SchemaRegistry } from '../schema-registry/registry.js';
import type { ReplicaManager } from '../broker/replica-manager.js';
import type { GroupCoordinator } from '../coordinator/group-coordinator.js';
import type { ShareCoordinator } from '../coordinator/share-state/share-coordinator.js';
import type { ProducerStates } from '../broker/producer-states.js';
import type { TxnCoordinator } from '../coordinator/txn/txn-coordinator.js';
import type { ConnectionInfo } from './connection.js';
import type { RequestQuotaState } from './throttle.js';
import type { TopicCatalog } from '../broker/topic-catalog.js';
import type { Features } from '../broker/features.js';
import type { StandardAuthorizer } from '../security/authorizer/standard-authorizer.js';
import type { QuotaManagers } from '../broker/quota/quota-managers.js';
import type { Cluster } from '../cluster/cluster.js';
import type { Clock } from '../storage/scheduler.js';
import type { FaultInjector } from './faults/fault-injector.js';

/** Returned by a handler whose request gets no response at all (acks=0 Produce). */
export const NO_RESPONSE: unique symbol = Symbol('no response');

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/** Broker-wide state every handler may read. */
export interface BrokerState {
  /**
   * The live config: static settings overlaid with the dynamic broker configs. Replaced as a whole (never
   * mutated) when they change, so read it at request time rather than keeping it.
   */
  config: BrokerConfig;
  readonly nodeId: number;
  readonly clusterId: string;
  readonly topics: TopicCatalog;
  /** Topics and partition logs (gregor.log.engine: file under log.dirs[0], or memory). */
  readonly store: LogStore;
  /** The Kafka-level partition layer over the store: appends, partition lookups, fetch sessions, long polls. */
  readonly replicaManager: ReplicaManager;
  /** Classic consumer groups and committed offsets (persisted in __consumer_offsets). */
  readonly groups: GroupCoordinator;
  /** The share coordinator: share partitions' durable delivery state (persisted in __share_group_state). */
  readonly shareState: ShareCoordinator;
  /** Per partition: producer ids and sequences, open transactions (last stable offset), aborted transactions. */
  readonly producerStates: ProducerStates;
  /** The transaction coordinator: producer ids and transactional ids (persisted in __transaction_state). */
  readonly transactions: TxnCoordinator;
  /** Feature flags: what this broker supports and the finalized level of each (ApiVersions, UpdateFeatures). */
  readonly features: Features;
  /** Client quotas as enforced: byte rates, request time, controller mutations (server/throttle.ts applies them). */
  readonly quotas: QuotaManagers;
  /** The registry in force (ApiVersions is derived from it): handlers, and APIs loaded on their first request. */
  readonly handlers: readonly RegisteredApi[];
  /** Advertised endpoint per listener name: what Metadata tells a client that came in on that listener. */
  readonly advertised: ReadonlyMap<string, Endpoint>;
  /** The ACLs and the access decisions (authorizer.class.name set), or null: every request allowed (server/authorization.ts asks it). */
  readonly authorizer: StandardAuthorizer | null;
  /** Cluster mode (gregor.cluster.etcd.endpoints): the brokers, controller and partition replicas from etcd; undefined: one broker. */
  readonly cluster?: Cluster;
  /** Confluent's schema registry (src/schema-registry/), kept in _schemas: served on its own port and the HTTP listener. */
  readonly schemaRegistry: SchemaRegistry;
  /** The broker's clock (gregor.clock): what handlers read as broker time (quota windows, the broker's timestamps). */
  readonly clock: Clock;
  /** Fault rules (server/faults/): the router asks them about each request while any is set. */
  readonly faults: FaultInjector;
  readonly log: Log;
}

export interface RequestHeaderInfo {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string | null;
  /** The request's bytes after its size prefix (Kafka's request.sizeInBytes: what producer_byte_rate counts). */
  readonly size: number;
}

export interface RequestContext {
  readonly broker: BrokerState;
  readonly connection: ConnectionInfo;
  readonly header: RequestHeaderInfo;
  /** The request's cost for request_percentage (server/throttle.ts). */
  readonly quota: RequestQuotaState;
  /**
   * A fault rule's error for some partitions (faults/partition-errors.ts), set only while one fires: asked by a handler
   * that serves partitions its request does not list (ShareFetch's session), which leaves those out before touching them.
   */
  readonly faultedPartition?: (topicId: string, partition: number) => { readonly code: number; readonly message: string | null } | undefined;
}

export type HandlerResult<Res> = Res | typeof NO_RESPONSE | Promise<Res | typeof NO_RESPONSE>;

/** What the registry tells of an API without loading its code: enough for ApiVersions and the router. */
export interface ApiRegistration {
  readonly api: { readonly apiKey: number; readonly name: string };
  /** The versions served: Apache Kafka 4.x's range for this API, advertised by ApiVersions. */
  readonly minVersion: number;
  readonly maxVersion: number;
  /**
   * Taken one request at a time per connection (Kafka takes every request so): set on an API whose response
   * holds as many bytes as the client asks for, so a client pipelining them cannot make the broker build many.
   */
  readonly oneAtATime?: boolean;
}

export interface Handler<Req = unknown, Res = unknown> extends ApiRegistration {
  /** The generated codec of this API (key, name, encoders and decoders). */
  readonly api: ApiDescriptor<Req, Res>;
  handle(ctx: RequestContext, request: Req, version: number): HandlerResult<Res>;
  /**
   * Answers a request whose version is outside the range, without parsing its body. Only
   * ApiVersions has this (Kafka answers it in v0); for every other API the connection is closed.
   */
  unsupportedVersion?(ctx: RequestContext): { readonly response: Res; readonly version: number };
  /**
   * minVersion may lie below the codec's: versions Kafka removed but still advertises, and refuses by closing the
   * connection (Produce v0-v2: KAFKA-18659, ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION). Otherwise a
   * handler's range lies within its codec's.
   */
  readonly advertisesRemovedVersions?: true;
}

/**
 * An API whose handler module (and the codec it imports) is loaded on its first request, so that an idle
 * broker never compiles the code of APIs nobody calls. The loaded handler must match this registration.
 */
export interface LazyHandler extends ApiRegistration {
  load(): Promise<Handler>;
}

export type RegisteredApi = Handler | LazyHandler;

export function isLazy(api: RegisteredApi): api is LazyHandler {
  return 'load' in api;
}

/** A registry line for a lazily loaded API: its key, name and served versions, and how to load its handler. */
export function lazyHandler(apiKey: number, name: string, minVersion: number, maxVersion: number, load: () => Promise<Handler>): LazyHandler {
  return { api: { apiKey, name }, minVersion, maxVersion, load };
}

/** Types a handler against its generated request/response interfaces, then erases them for the registry. */
export function defineHandler<Req, Res>(handler: Handler<Req, Res>): Handler {
  return handler as unknown as Handler;
}
