/**
 * startBroker: binds the listeners and serves the registry's APIs. The library's entry point; the
 * `gregor` command is a thin shell over it.
 */
import { hostname } from 'node:os';
import type { Socket } from 'node:net';
import { notActedOn, parseListeners, type BrokerConfig } from '../config/index.js';
import { backgroundIntervals, cleanerSettings, openLogStore } from '../broker/open-store.js';
import { brokerLogDefaults, storeConfigResolver } from '../broker/topic-log-config.js';
import { ReplicaManager } from '../broker/replica-manager.js';
import { StoreTopicCatalog } from '../broker/store-topic-catalog.js';
import { GroupCoordinator } from '../coordinator/group-coordinator.js';
import { ProducerStates } from '../broker/producer-states.js';
import { openTransactions } from '../coordinator/txn/open-transactions.js';
import { silentLog, type Log } from '../log.js';
import type { LogStore } from '../storage/log-store.js';
import { MemoryLogStore } from '../storage/memory/memory-store.js';
import { fileDynamicConfigStore, memoryDynamicConfigStore } from './admin/dynamic-config-store.js';
import { attachDynamicConfigs, DynamicConfigs } from './admin/dynamic-configs.js';
import { Connection, type ConnectionLimits } from './connection.js';
import type { BrokerState, Endpoint, RegisteredApi } from './handler.js';
import { handlers as registry } from './handlers/index.js';
import { bindListener, type BoundListener } from './listener.js';
import { createDispatch } from './router.js';
import type { TopicCatalog } from './topic-catalog.js';

export interface Broker {
  /** The bound address of each listener, in configuration order (port 0 resolved). */
  readonly addresses: readonly { readonly host: string; readonly port: number }[];
  readonly clusterId: string;
  /** Stops accepting, answers requests in flight, closes every connection. */
  close(): Promise<void>;
}

export interface BrokerOptions {
  /** Default: silent. */
  readonly logger?: Log;
  /** Whether to log 'broker started' (info). Default true; the command writes its own start-up line instead. */
  readonly logStarted?: boolean;
  /** The API registry; tests may inject their own. Default: handlers/index.ts. */
  readonly handlers?: readonly RegisteredApi[];
  /**
   * Default: the store's topics. A test catalog given here is what Metadata reads; without `store` the
   * broker then keeps its data in memory (a test must not write to the configured log.dirs).
   */
  readonly topics?: TopicCatalog;
  /** An already-open store to serve (tests); the broker closes it on close(). Default: opened from config. */
  readonly store?: LogStore;
  /** Per-connection limits beyond the config keys; tests lower them. */
  readonly maxInFlightPerConnection?: number;
  readonly maxInFlightBytesPerConnection?: number;
  readonly writeHighWaterMark?: number;
}

/** Requests a connection may have awaiting their response before reading pauses. */
const DEFAULT_MAX_IN_FLIGHT = 100;
/**
 * Bytes of request frames a connection may have awaiting their response before reading pauses. Kafka
 * reads one request per connection at a time; this keeps pipelining (group commit merges what waits)
 * while bounding it: librdkafka's ~0.5 MB requests, 100 deep, held ~50 MB (BENCHMARKS.md, "Peak RSS").
 */
const DEFAULT_MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;
/** Bytes queued for a socket above which reading pauses until 'drain'. */
const DEFAULT_WRITE_HIGH_WATER_MARK = 1024 * 1024;

export async function startBroker(staticConfig: BrokerConfig, options: BrokerOptions = {}): Promise<Broker> {
  const log = options.logger ?? silentLog();
  for (const note of notActedOn(staticConfig)) log.warn({ keys: note.keys }, note.message);
  // Dynamic broker configs are read before anything else reads the config. Listeners and connection
  // limits stay the static ones (dynamic listeners are stored and described, not applied).
  const dynamic = await DynamicConfigs.open(staticConfig, dynamicConfigStoreFor(staticConfig, options));
  const config = dynamic.config;
  const securityProtocolMap = staticConfig['listener.security.protocol.map'];
  const listenerSpecs = parseListeners(staticConfig['listeners'], { securityProtocolMap });
  const advertisedValues = staticConfig['advertised.listeners'];
  const advertisedSpecs =
    advertisedValues === null ? listenerSpecs : parseListeners(advertisedValues, { key: 'advertised.listeners', securityProtocolMap });
  const limits: ConnectionLimits = {
    maxRequestBytes: config['socket.request.max.bytes'],
    maxInFlight: options.maxInFlightPerConnection ?? DEFAULT_MAX_IN_FLIGHT,
    maxInFlightBytes: options.maxInFlightBytesPerConnection ?? DEFAULT_MAX_IN_FLIGHT_BYTES,
    idleMs: config['connections.max.idle.ms'],
  };
  const connections = new Set<Connection>();
  let nextConnectionId = 0;
  let closing = false;
  let dispatch: ReturnType<typeof createDispatch> | undefined;

  const onSocket = (socket: Socket, listenerName: string): void => {
    if (closing || dispatch === undefined) {
      socket.destroy();
      return;
    }
    const info = {
      id: nextConnectionId++,
      listenerName,
      remote: `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`,
      clientId: null,
      clientSoftwareName: null,
      clientSoftwareVersion: null,
    };
    log.debug({ client: info.remote, listener: listenerName, local: `${socket.localAddress}:${socket.localPort}` },
      `Accepted connection from ${info.remote} on ${listenerName}`);
    const connection = new Connection(socket, info, dispatch, limits, log);
    connections.add(connection);
    void connection.done.then(() => connections.delete(connection));
  };

  // Logs are loaded (and recovered) before any listener accepts a client, as Kafka does.
  const store: LogStore =
    options.store ??
    (options.topics !== undefined ? new MemoryLogStore({ nodeId: config['node.id'] }) : await openLogStore(config, log));
  // What start-up has opened so far, closed in reverse order when a later step fails.
  const opened: (() => Promise<void>)[] = [() => store.close()];
  const bound: BoundListener[] = [];
  let state: BrokerState;
  try {
    // Groups and committed offsets are loaded from __consumer_offsets before any client is accepted.
    const groups = await GroupCoordinator.open({ store, config, log });
    opened.push(() => groups.close());
    // Producer state is rebuilt from the logs, then transactions from __transaction_state (prepared ones finish).
    const producerStates = await ProducerStates.load(store, Date.now, (msg) => log.warn(msg));
    const replicaManager = new ReplicaManager(store, config, { producerState: producerStates });
    const transactions = await openTransactions({ config, liveConfig: () => dynamic.config, replicaManager, producerStates, groups, log });
    opened.push(() => transactions.close());
    for (const spec of listenerSpecs) {
      const listener = await bindListener(spec, options.writeHighWaterMark ?? DEFAULT_WRITE_HIGH_WATER_MARK, onSocket);
      bound.push(listener);
      opened.push(() => listener.close());
    }
    state = {
      config,
      nodeId: store.nodeId,
      clusterId: store.clusterId,
      topics: options.topics ?? new StoreTopicCatalog(store, config),
      store,
      replicaManager,
      groups,
      producerStates,
      transactions,
      handlers: options.handlers ?? registry,
      advertised: advertisedEndpoints(advertisedSpecs, bound),
      log,
    };
    attachDynamicConfigs(state, dynamic);
    // What captured config at start-up hears of a change; handlers read state.config at request time.
    dynamic.onChange(async (next, previous) => {
      state.config = next;
      replicaManager.reconfigure(next);
      await store.reconfigureLogs(brokerLogDefaults(next), storeConfigResolver(next));
      const cleaner = cleanerSettings(next);
      if (JSON.stringify(cleaner) !== JSON.stringify(cleanerSettings(previous))) await store.reconfigureCleaner(cleaner);
    });
    dispatch = createDispatch(state);
    store.startBackground(backgroundIntervals(config, (partitionLog) => producerStates.lastStableOffset(partitionLog)));
  } catch (err) {
    for (const close of opened.reverse()) await close();
    throw err;
  }
  if (options.logStarted !== false) {
    log.info(
      { listeners: bound.map((l) => `${l.name}://${l.host}:${l.port}`), nodeId: state.nodeId, clusterId: state.clusterId },
      'broker started',
    );
  }

  return {
    addresses: bound.map(({ host, port }) => ({ host, port })),
    clusterId: state.clusterId,
    async close() {
      if (closing) return;
      closing = true;
      const stopped = bound.map((listener) => listener.close());
      // Pending long polls answer now with what they have, so connections can drain.
      state.replicaManager.shutdown();
      // Parked JoinGroup/SyncGroup requests are answered now too; queued group writes finish before the store closes.
      const groupsClosed = state.groups.close();
      await Promise.all([...connections].map((connection) => connection.close()));
      await Promise.all(stopped);
      // Marker rounds in progress finish (they may write to __consumer_offsets) before the groups' last writes.
      await state.transactions.close();
      await groupsClosed;
      // Producer state snapshots at every log end: the next start reads no batch to rebuild it.
      await state.producerStates.snapshotAll();
      // After the connections: no append is in flight, and the file engine marks the shutdown clean.
      await store.close();
      log.info('broker stopped');
    },
  };
}

/** Where the dynamic broker configs are kept: beside the file engine's logs, else in memory (as the data is). */
function dynamicConfigStoreFor(config: BrokerConfig, options: BrokerOptions) {
  const logDir = config['log.dirs'][0];
  const inMemory = options.store !== undefined || options.topics !== undefined || config['gregor.log.engine'] === 'memory';
  return inMemory || logDir === undefined ? memoryDynamicConfigStore() : fileDynamicConfigStore(logDir);
}

/**
 * What Metadata tells a client, per listener name: the advertised listener of that name, with an
 * empty host replaced by this machine's name (as Kafka does) and port 0 by the port bound.
 */
function advertisedEndpoints(advertised: readonly { name: string; host: string; port: number }[], bound: readonly BoundListener[]): Map<string, Endpoint> {
  const endpoints = new Map<string, Endpoint>();
  for (const spec of advertised) {
    if (spec.host === '0.0.0.0' || spec.host === '::') {
      throw new Error(`advertised.listeners: ${spec.name} cannot advertise the non-routable address ${spec.host}`);
    }
    const boundPort = bound.find((listener) => listener.name === spec.name)?.port;
    if (spec.port === 0 && boundPort === undefined) {
      throw new Error(`advertised.listeners: ${spec.name} has port 0 but no listener of that name is bound`);
    }
    endpoints.set(spec.name, { host: spec.host === '' ? hostname() : spec.host, port: spec.port === 0 ? boundPort! : spec.port });
  }
  return endpoints;
}
