/**
 * startBroker: binds the listeners and serves the registry's APIs. The library's entry point; the
 * `gregor` command is a thin shell over it.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { notActedOn, parseHttpListeners, parseListeners, usesTls, type BrokerConfig, type LogEngine } from '../config/index.js';
import { listenerTls } from '../security/tls/listener-tls.js';
import { tlsPrincipal } from '../security/tls/principal.js';
import { backgroundIntervals, cleanerSettings, logEngine, openLogStore } from '../broker/open-store.js';
import { ReplicaManager } from '../broker/replica-manager.js';
import { BrokerTopicStats } from '../broker/broker-topic-stats.js';
import { StoreTopicCatalog } from '../broker/store-topic-catalog.js';
import { GroupCoordinator } from '../coordinator/group-coordinator.js';
import { ShareCoordinator } from '../coordinator/share-state/share-coordinator.js';
import { shareGroupsEnabled } from './share-protocol.js';
import { ProducerStates } from '../broker/producer-states.js';
import { Features } from '../broker/features.js';
import { fileFeatureStore, memoryFeatureStore } from '../broker/feature-store.js';
import { openTransactions } from '../coordinator/txn/open-transactions.js';
import { silentLog, type Log } from '../log.js';
import type { LogStore } from '../storage/log-store.js';
import { dynamicConfigEntries, fileDynamicConfigStore, memoryDynamicConfigStore } from './admin/dynamic-config-store.js';
import { attachDynamicConfigs, DynamicConfigs, initialClusterDefault } from './admin/dynamic-configs.js';
import { CLIENT_QUOTA_ENTRIES, fileClientQuotaStore, memoryClientQuotaStore } from './admin/client-quota-store.js';
import { attachClientQuotas, ClientQuotas } from './admin/client-quotas.js';
import { QuotaManagers } from '../broker/quota/quota-managers.js';
import { fileResourceConfigStore, memoryResourceConfigStore, RESOURCE_CONFIG_ENTRIES } from './admin/resource-config-store.js';
import { attachResourceConfigs, ResourceConfigs } from './admin/resource-configs.js';
import { Connection, type ConnectionLimits } from './connection.js';
import { ConnectionQuotas, connectionQuotaSettings } from './connection-quotas.js';
import type { BrokerState, Endpoint, RegisteredApi } from './handler.js';
import { handlers as registry } from './handlers/index.js';
import { bindListener, type BoundListener } from './listener.js';
import { RequestBudget } from './request-budget.js';
import { RequestMetrics } from './request-metrics.js';
import { createDispatch } from './router.js';
import { saslGate } from './sasl-gate.js';
import { attachScramCredentials } from './admin/scram-credentials.js';
import { attachDelegationTokens } from './admin/delegation-tokens.js';
import { DelegationTokens, fileDelegationTokenStore, memoryDelegationTokenStore, TOKEN_ENTRIES } from '../security/delegation-tokens.js';
import { authorizerSettingsFrom, StandardAuthorizer } from '../security/authorizer/standard-authorizer.js';
import { ACL_ENTRIES, fileAclStore, memoryAclStore } from '../security/authorizer/acl-store.js';
import { ANONYMOUS } from '../security/principal.js';
import { SaslAuthenticator } from '../security/sasl/authenticator.js';
import { saslListenerSettings } from '../security/sasl/listener-sasl.js';
import { fileScramCredentialStore, memoryScramCredentialStore, SCRAM_ENTRIES, ScramCredentials } from '../security/sasl/scram-credentials.js';
import type { StateEntries, StateStore } from '../storage/file/state-file.js';
import type { StateArea } from '../cluster/cluster-state-stores.js';
import type { TopicCatalog } from '../broker/topic-catalog.js';
import { parseRegistryListeners, type RegistryListener } from '../config/schema-registry-listeners.js';
import { openSchemaRegistry } from '../schema-registry/open-registry.js';
import type { SchemaRegistry } from '../schema-registry/registry.js';
import type { RegistryServer } from '../schema-registry/rest/registry-server.js';
import { ManualScheduler, systemScheduler, type Clock } from '../storage/scheduler.js';
import { FaultInjector } from './faults/fault-injector.js';
import type { HttpServerHandle, HttpServerStarter, StartupProgress } from './http-attachment.js';

export interface Broker {
  /** The bound address of each listener, in configuration order (port 0 resolved). */
  readonly addresses: readonly { readonly host: string; readonly port: number }[];
  /** The bound address of each HTTP listener (gregor.http.listeners), in configuration order (port 0 resolved); empty without HTTP. */
  readonly httpAddresses: readonly { readonly host: string; readonly port: number }[];
  readonly clusterId: string;
  /** The schema registry's own listeners (gregor.schema.registry.listeners), bound, port 0 resolved. */
  readonly schemaRegistryAddresses: readonly RegistryListener[];
  /** The broker's clock (gregor.clock): `broker.clock.advance(ms)` moves a manual one, running the timers that fall due. */
  readonly clock: Clock;
  /** Fault rules (add, list, remove, clear): matched requests get the rule's error, delay, drop... (server/faults/). */
  readonly faults: FaultInjector;
  /** What the connections hold now (tests and diagnostics). */
  stats(): BrokerStats;
  /** Stops accepting, answers requests in flight, closes every connection. */
  close(): Promise<void>;
}

export interface BrokerStats {
  /** Open connections, admitted by the connection quotas. */
  readonly connections: number;
  /** Connections accepted by the OS and waiting for a slot (max.connections). */
  readonly waitingConnections: number;
  /** Requests taken off the wire whose handler has not finished (what queued.max.requests bounds). */
  readonly requestsInProgress: number;
  /** The largest count of response bytes one connection holds for its client (the write high-water mark bounds it). */
  readonly maxQueuedResponseBytes: number;
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
  /** Response bytes a connection may hold for its client before it stops reading requests. */
  readonly writeHighWaterMark?: number;
  /** The feature levels to serve (tests set transaction.version on it with `apply`). Default: Kafka 4.3.1's defaults. */
  readonly features?: Features;
  /**
   * The schema registry's address when gregor.schema.registry.listeners is unset (the command: http://localhost:8081):
   * bound when free, else a warning and no registry port.
   */
  readonly schemaRegistryDefaultListener?: string;
  /** The broker's clock (tests pass a ManualScheduler). Default: by gregor.clock (manual starts at the wall time, as Kafka's MockTime). */
  readonly clock?: Clock;
  /** The HTTP listeners, http://host:port[,...], in place of gregor.http.listeners ('' for none). */
  readonly http?: string;
  /**
   * What serves HTTP when listeners are set: src/http's startHttpServer (a layer above this one). The library's
   * startBroker (src/index.ts) and the command pass it; without it, HTTP listeners are refused at start-up.
   */
  readonly httpServer?: HttpServerStarter;
}

/** Requests a connection may have awaiting their response before reading pauses. */
const DEFAULT_MAX_IN_FLIGHT = 100;
/**
 * Bytes of request frames a connection may have awaiting their response before reading pauses. Kafka
 * reads one request per connection at a time; this keeps pipelining (group commit merges what waits)
 * while bounding it: librdkafka's ~0.5 MB requests, 100 deep, held ~50 MB (BENCHMARKS.md, "Peak RSS").
 */
const DEFAULT_MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;
/**
 * Response bytes queued for a client (unsent, or done behind an earlier response) at which its connection
 * stops reading requests until the client takes them.
 */
const DEFAULT_WRITE_HIGH_WATER_MARK = 1024 * 1024;

export async function startBroker(staticConfig: BrokerConfig, options: BrokerOptions = {}): Promise<Broker> {
  const log = options.logger ?? silentLog();
  const clock = options.clock ?? (staticConfig['gregor.clock'] === 'manual' ? new ManualScheduler(Date.now(), true) : systemScheduler);
  const startedAt = clock.now();
  for (const note of notActedOn(staticConfig)) log.warn({ keys: note.keys }, note.message);
  // Dynamic broker configs are read before anything else reads the config. Listeners, the per-connection
  // limits and queued.max.requests stay the static ones (dynamic listeners are stored and described, not
  // applied); the connection quotas follow every change.
  const engine = logEngine(staticConfig, options.topics !== undefined);
  const metadataDir = metadataDirFor(staticConfig, options.store !== undefined ? 'memory' : engine);
  // Cluster mode: the cluster-wide metadata (dynamic broker configs, group and client metrics configs, ACLs, SCRAM
  // credentials, client quotas, delegation tokens) is kept in etcd, every broker following every change; else in this
  // broker's files.
  const shared = staticConfig['gregor.cluster.etcd.endpoints'] === null ? undefined
    : await (await import('../cluster/cluster-state-stores.js')).ClusterStateStores.connect(staticConfig, log);
  const sharedOrLocal = <T>(area: StateArea, form: StateEntries<T>, local: (dir: string) => StateStore<T>, memory: () => StateStore<T>, seed?: T): StateStore<T> => {
    if (shared === undefined) return metadataDir === undefined ? memory() : local(metadataDir);
    // A broker that ran alone before: its file is left alone, and said to be so.
    const file = metadataDir === undefined ? undefined : local(metadataDir).description;
    if (file !== undefined && existsSync(file)) log.warn({ file }, `${file} is not read in cluster mode: etcd holds ${form.holds} of the cluster`);
    return shared.store(area, form, seed);
  };
  const dynamic = await DynamicConfigs.open(staticConfig, sharedOrLocal('broker-configs', dynamicConfigEntries(staticConfig['node.id']), fileDynamicConfigStore,
    memoryDynamicConfigStore, { perBroker: new Map(), clusterDefault: initialClusterDefault(staticConfig) }));
  const scramCredentials = await ScramCredentials.open(sharedOrLocal('scram-credentials', SCRAM_ENTRIES, fileScramCredentialStore, memoryScramCredentialStore));
  const delegationTokens = await DelegationTokens.open(sharedOrLocal('delegation-tokens', TOKEN_ENTRIES, fileDelegationTokenStore, memoryDelegationTokenStore), {
    secretKey: staticConfig['delegation.token.secret.key'],
    maxLifetimeMs: staticConfig['delegation.token.max.lifetime.ms'],
    expiryTimeMs: staticConfig['delegation.token.expiry.time.ms'],
  }, () => clock.now());
  const authorizerSettings = authorizerSettingsFrom(staticConfig);
  const authorizer = authorizerSettings === null ? null
    : await StandardAuthorizer.open(sharedOrLocal('acls', ACL_ENTRIES, fileAclStore, memoryAclStore), authorizerSettings);
  const clientQuotas = await ClientQuotas.open(sharedOrLocal('client-quotas', CLIENT_QUOTA_ENTRIES, fileClientQuotaStore, memoryClientQuotaStore));
  // The quota windows are static configs, as in Kafka; the quotas follow every alteration.
  const clientQuotaManagers = new QuotaManagers(staticConfig, () => clock.now());
  clientQuotas.subscribe((image) => clientQuotaManagers.update(image));
  // Group and client metrics configs are kept beside the dynamic broker configs.
  const resourceConfigs = await ResourceConfigs.open(sharedOrLocal('resource-configs', RESOURCE_CONFIG_ENTRIES, fileResourceConfigStore, memoryResourceConfigStore));
  const config = dynamic.config;
  const securityProtocolMap = staticConfig['listener.security.protocol.map'];
  // TLS settings are resolved and their stores loaded now: a bad one stops start-up before anything is opened.
  const listenerSpecs = parseListeners(staticConfig['listeners'], { securityProtocolMap }).map((listener) =>
    usesTls(listener.securityProtocol) ? { ...listener, tls: listenerTls(staticConfig, listener.name, listener.securityProtocol) } : listener);
  const advertisedValues = staticConfig['advertised.listeners'];
  const advertisedSpecs =
    advertisedValues === null ? listenerSpecs : parseListeners(advertisedValues, { key: 'advertised.listeners', securityProtocolMap });
  const handlers = options.handlers ?? registry;
  const httpListeners = parseHttpListeners(options.http === undefined ? staticConfig['gregor.http.listeners'] : options.http.split(',').filter((l) => l.trim() !== ''));
  if (httpListeners.length > 0 && options.httpServer === undefined) {
    throw new Error('gregor.http.listeners is set but this startBroker was given no HTTP server (BrokerOptions.httpServer): start the broker through the package\'s startBroker');
  }
  // Each SASL listener's mechanisms and users, checked before anything is bound.
  const apiNames = new Map(handlers.map((h) => [h.api.apiKey, h.api.name]));
  const saslListeners = new Map(listenerSpecs.filter((spec) => spec.securityProtocol === 'SASL_PLAINTEXT' || spec.securityProtocol === 'SASL_SSL').map((spec) => [spec.name,
    saslListenerSettings(config, spec.name, (user, mechanism) => scramCredentials.get(user, mechanism),
      (tokenId, mechanism) => delegationTokens.credential(tokenId, mechanism), (key) => apiNames.get(key), (line) => log.warn(line), (line) => log.debug(line))]));
  const requests = new RequestBudget(config['queued.max.requests']);
  const limits: ConnectionLimits = {
    maxRequestBytes: config['socket.request.max.bytes'],
    maxInFlight: options.maxInFlightPerConnection ?? DEFAULT_MAX_IN_FLIGHT,
    maxInFlightBytes: options.maxInFlightBytesPerConnection ?? DEFAULT_MAX_IN_FLIGHT_BYTES,
    idleMs: config['connections.max.idle.ms'],
    oneAtATime: new Set(handlers.filter((h) => h.oneAtATime === true).map((h) => h.api.apiKey)),
    requests,
  };
  const connections = new Set<Connection>();
  let nextConnectionId = 0;
  let closing = false;
  let dispatch: ReturnType<typeof createDispatch> | undefined;

  const listenerNames = listenerSpecs.map((spec) => spec.name);
  const securityProtocolOf = new Map(listenerSpecs.map((spec) => [spec.name, spec.securityProtocol]));
  const tlsByListener = new Map(listenerSpecs.map((spec) => [spec.name, 'tls' in spec ? spec.tls : undefined]));
  const onAdmitted = (socket: Socket, listenerName: string, release: () => void): void => {
    const tls = tlsByListener.get(listenerName);
    let principal = ANONYMOUS;
    if (tls !== undefined) {
      try {
        principal = tlsPrincipal((socket as TLSSocket).getPeerCertificate(), tls.principalMapper);
      } catch (err) {
        // No ssl.principal.mapping.rules rule applies: Kafka fails the client's authentication and closes.
        log.info({ client: socket.remoteAddress, listener: listenerName, reason: (err as Error).message },
          `Failed authentication with /${socket.remoteAddress ?? '?'} (${(err as Error).message})`);
        socket.destroy();
        release();
        return;
      }
    }
    const info = {
      id: nextConnectionId++,
      listenerName,
      principal,
      securityProtocol: securityProtocolOf.get(listenerName)!,
      tokenAuthenticated: false,
      remote: `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`,
      clientId: null,
      clientSoftwareName: null,
      clientSoftwareVersion: null,
    };
    log.debug({ client: info.remote, listener: listenerName, local: `${socket.localAddress}:${socket.localPort}`, principal },
      `Accepted connection from ${info.remote} on ${listenerName}`);
    const sasl = saslListeners.get(listenerName);
    let connection: Connection | undefined = undefined;
    const gated = () => ({
      close: () => void connection!.close(),
      destroy: (reason: string) => connection!.destroy(reason),
      authenticated: () => connection!.limitFrames(limits.maxRequestBytes, 'socket.request.max.bytes'),
    });
    const serve = sasl === undefined ? dispatch! : saslGate(new SaslAuthenticator(sasl), dispatch!, gated, log);
    connection = new Connection(socket, info, serve, limits, log);
    // As Kafka's SaslServerAuthenticator, an unauthenticated client's frames are bounded by sasl.server.max.receive.size.
    if (sasl !== undefined) connection.limitFrames(config['sasl.server.max.receive.size'], 'sasl.server.max.receive.size');
    connections.add(connection);
    void connection.done.then(() => {
      connections.delete(connection);
      release();
    });
  };
  const quotas = new ConnectionQuotas(await connectionQuotaSettings(config, log), listenerNames,
    config['socket.listen.backlog.size'], onAdmitted, log);
  const requestMetrics = new RequestMetrics();
  const progress: StartupProgress = { logsLoaded: false, coordinatorsLoaded: false, listenersBound: false, closing: false };
  // HTTP first: /healthz and /readyz answer while the logs load.
  const http: HttpServerHandle | undefined = httpListeners.length === 0 ? undefined
    : await options.httpServer!({ listeners: httpListeners, log, scheduler: clock, startedAt, progress });
  const onSocket = (socket: Socket, listenerName: string): void => {
    if (closing || dispatch === undefined) {
      socket.destroy();
      return;
    }
    quotas.offer(socket, listenerName);
  };

  // Cluster mode: etcd is reached and the cluster id read before the log dir opens (its meta.properties must hold it).
  // The cluster layer (and etcd3) is loaded only then.
  const cluster = staticConfig['gregor.cluster.etcd.endpoints'] === null ? undefined
    : await (await import('../cluster/etcd-cluster.js')).connectCluster(staticConfig, log).catch(async (err: unknown) => {
      await http?.close();
      await shared?.close();
      throw err;
    });
  // Logs are loaded (and recovered) before any listener accepts a client, as Kafka does.
  let store: LogStore;
  try {
    store = options.store ?? (await openLogStore(config, log, engine, clock, cluster?.clusterId));
  } catch (err) {
    await cluster?.close();
    await http?.close();
    await shared?.close();
    throw err;
  }
  progress.logsLoaded = true;
  // What start-up has opened so far, closed in reverse order when a later step fails.
  let replication: import('../cluster/cluster-replication.js').ClusterReplication | undefined;
  const opened: (() => Promise<void>)[] = [...(http === undefined ? [] : [() => http.close()]), () => store.close()];
  if (cluster !== undefined) opened.push(() => cluster.close());
  if (shared !== undefined) opened.push(() => shared.close());
  const bound: BoundListener[] = [];
  let state: BrokerState;
  let stopSweeping = () => {};
  let registryServer: RegistryServer | undefined;
  try {
    // Share partitions' state is loaded from __share_group_state, groups and committed offsets from
    // __consumer_offsets, before any client is accepted.
    // One count per topic of what is appended, the coordinators' own writes included (Kafka's BrokerTopicMetrics).
    const topicStats = new BrokerTopicStats();
    // Its prune and cold-snapshot timers run on the broker's clock, only while share.version is 1 or more.
    const shareState = await ShareCoordinator.open({
      store, config: () => dynamic.config, log, scheduler: clock, topicStats,
      periodicJobs: () => state !== undefined && shareGroupsEnabled(state),
    });
    opened.push(() => shareState.close());
    const groups = await GroupCoordinator.open({
      store, config, log, scheduler: clock, groupConfigs: (groupId) => resourceConfigs.groupConfig(groupId, dynamic.config, (line) => log.warn(line)), shareState, topicStats,
    });
    opened.push(() => groups.close());
    // Producer state is rebuilt from the logs, then transactions from __transaction_state (prepared ones finish).
    const features = options.features ?? (await Features.open(metadataDir === undefined ? memoryFeatureStore() : fileFeatureStore(metadataDir)));
    const producerStates = await ProducerStates.load(store, () => clock.now());
    const replicaManager = new ReplicaManager(store, config, { producerState: producerStates, transactions: producerStates, clock, topicStats });
    replicaManager.sharePartitions.usePersister(shareState);
    // Cluster mode: producer id blocks come from etcd's one counter, so no two brokers hand out the same id.
    const transactions = await openTransactions({
      config, liveConfig: () => dynamic.config, replicaManager, producerStates, groups, features, scheduler: clock, log,
      ...(cluster === undefined ? {} : { producerIdBlocks: cluster.producerIdBlocks() }),
    });
    opened.push(() => transactions.close());
    // The schema registry's subjects and ids are read from _schemas before its port (or the HTTP listener) serves.
    const schemaRegistry = await openSchemaRegistry(replicaManager, () => clock.now(), log);
    registryServer = await startSchemaRegistryPort(schemaRegistry, config, options.schemaRegistryDefaultListener, log);
    if (registryServer !== undefined) opened.push(() => registryServer!.close());
    progress.coordinatorsLoaded = true;
    for (const spec of listenerSpecs) {
      const listener = await bindListener(spec, options.writeHighWaterMark ?? DEFAULT_WRITE_HIGH_WATER_MARK, onSocket, {
        onAcceptError: (err) => log.error({ err, listener: spec.name }, 'Error while accepting connection'),
        // Kafka's Selector line for a failed handshake (INFO), the TLS reason at DEBUG; neither holds key material.
        onTlsError: (err, client) => {
          log.info({ client, listener: spec.name }, `Failed authentication with /${client} (SSL handshake failed)`);
          log.debug({ client, listener: spec.name, reason: err.message.trim() }, `SSL handshake with /${client} failed: ${err.message.trim()}`);
        },
      });
      bound.push(listener);
      opened.push(() => listener.close());
    }
    const advertised = advertisedEndpoints(advertisedSpecs, bound);
    state = {
      config,
      nodeId: store.nodeId,
      clusterId: store.clusterId,
      topics: options.topics ?? (cluster === undefined ? new StoreTopicCatalog(store, config)
        : new (await import('../cluster/cluster-topic-catalog.js')).ClusterTopicCatalog(cluster, () => state.config)),
      store,
      replicaManager,
      groups,
      shareState,
      producerStates,
      transactions,
      features,
      quotas: clientQuotaManagers,
      handlers,
      advertised,
      authorizer,
      ...(cluster === undefined ? {} : { cluster }),
      schemaRegistry,
      clock,
      faults: new FaultInjector(clock, log, (topicId) => store.topicById(topicId)?.name, groups,
        cluster === undefined ? undefined : (topic, partition) => cluster.moveLeadership(topic, partition)),
      log,
    };
    attachDynamicConfigs(state, dynamic);
    attachClientQuotas(state, clientQuotas);
    attachScramCredentials(state, scramCredentials);
    attachDelegationTokens(state, delegationTokens);
    attachResourceConfigs(state, resourceConfigs);
    // What captured config at start-up hears of a change; handlers read state.config at request time.
    dynamic.onChange(async (next, previous) => {
      state.config = next;
      replicaManager.reconfigure(next);
      await store.reconfigureLogs(next);
      const cleaner = cleanerSettings(next);
      if (JSON.stringify(cleaner) !== JSON.stringify(cleanerSettings(previous))) await store.reconfigureCleaner(cleaner);
      quotas.reconfigure(await connectionQuotaSettings(next, log));
    });
    if (cluster !== undefined) {
      // Local logs follow etcd's topics, then this broker registers its advertised listeners and stands for controller.
      await cluster.start(store, [...advertised].map(([listener, endpoint]) => ({ listener, ...endpoint, securityProtocol: securityProtocolOf.get(listener) ?? advertisedSpecs.find((s) => s.name === listener)!.securityProtocol })));
      replicaManager.setLeadership((topic, partition) => {
        const record = cluster.partition(topic, partition);
        return record === undefined || record.leader === cluster.nodeId;
      });
      // Followers fetch from their leaders; leaders track them, keep the ISR in etcd and hold acks=all for it.
      const { ClusterReplication } = await import('../cluster/cluster-replication.js');
      replication = await ClusterReplication.open({ cluster, store, config: () => state.config, clock, log, producerStates });
      replicaManager.setReplication(replication);
      replication.start();
      opened.push(() => replication!.close());
    }
    dispatch = createDispatch(state, requestMetrics);
    progress.listenersBound = true;
    stopSweeping = delegationTokens.startSweeping(config['delegation.token.expiry.check.interval.ms'],
      (token) => log.info(`Delegation token expired for token: ${token.tokenId} for owner: ${token.owner.type}:${token.owner.name}`), clock);
    opened.push(async () => stopSweeping());
    store.startBackground(backgroundIntervals(config, (partitionLog) => producerStates.lastStableOffset(partitionLog)));
    http?.serve({
      state,
      dynamicConfigs: dynamic,
      kafkaAddresses: bound.map(({ name, host, port }) => ({ name, host, port })),
      requestMetrics,
      connections: () => {
        const byListener = new Map(listenerNames.map((name) => [name, 0]));
        for (const connection of connections) byListener.set(connection.info.listenerName, byListener.get(connection.info.listenerName)! + 1);
        return { byListener, waiting: quotas.waitingConnections };
      },
    });
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
    httpAddresses: http?.addresses ?? [],
    clusterId: state.clusterId,
    schemaRegistryAddresses: registryServer?.addresses ?? [],
    clock,
    faults: state.faults,
    stats() {
      let maxQueuedResponseBytes = 0;
      for (const connection of connections) maxQueuedResponseBytes = Math.max(maxQueuedResponseBytes, connection.queuedResponseBytes);
      return {
        connections: quotas.connections,
        waitingConnections: quotas.waitingConnections,
        requestsInProgress: requests.requestsInProgress,
        maxQueuedResponseBytes,
      };
    },
    async close() {
      if (closing) return;
      closing = true;
      progress.closing = true;
      // Controlled shutdown: the controller moves this broker's leaderships away while it still serves, so
      // producers and followers go to the new leaders rather than waiting for a lease to expire.
      await state.cluster?.controlledShutdown(state.config['broker.session.timeout.ms']).catch((err: unknown) =>
        log.warn({ reason: (err as Error).message }, 'Controlled shutdown failed; stopping anyway'));
      // HTTP first: nothing reads the parts below while they close.
      await http?.close();
      const stopped = bound.map((listener) => listener.close());
      const registryStopped = registryServer?.close();
      quotas.closeWaiting();
      // Fetchers stop and produces waiting for the ISR answer before the long polls end.
      await replication?.close();
      // Pending long polls answer now with what they have, so connections can drain.
      state.replicaManager.shutdown();
      // Parked JoinGroup/SyncGroup requests are answered now too; queued group writes finish before the store closes.
      const groupsClosed = state.groups.close();
      await Promise.all([...connections].map((connection) => connection.close()));
      await Promise.all(stopped);
      await registryStopped;
      // Marker rounds in progress finish (they may write to __consumer_offsets) before the groups' last writes.
      await state.transactions.close();
      await groupsClosed;
      stopSweeping();
      // Leaving the cluster (its lease revoked) before the logs close: the others see this broker gone at once.
      await state.cluster?.close();
      await shared?.close();
      // After the connections: no append is in flight. Each log snapshots its producer state at its end (the next
      // start reads no batch to rebuild it), and the file engine marks the shutdown clean.
      await store.close();
      log.info('broker stopped');
    },
  };
}

/**
 * The schema registry's own port: gregor.schema.registry.listeners, else the command's default address, which
 * another process may hold (a second gregor): then a warning, and the broker serves without it.
 */
async function startSchemaRegistryPort(registry: SchemaRegistry, config: BrokerConfig, fallback: string | undefined, log: Log): Promise<RegistryServer | undefined> {
  const configured = parseRegistryListeners(config['gregor.schema.registry.listeners']);
  const listeners = configured.length > 0 ? configured : parseRegistryListeners(fallback === undefined ? [] : [fallback]);
  if (listeners.length === 0) return undefined;
  const { startRegistryServer } = await import('../schema-registry/rest/registry-server.js');
  try {
    return await startRegistryServer(registry, listeners);
  } catch (error) {
    if (configured.length > 0) throw error;
    log.warn(`Schema registry not served on ${fallback}: ${(error as Error).message} (set gregor.schema.registry.listeners to choose its address)`);
    return undefined;
  }
}

/**
 * Where what Kafka keeps in its metadata log (dynamic broker configs, client quotas, group and client metrics
 * configs, finalized features) is kept: beside the file engine's logs; undefined: in memory, as the data is.
 */
function metadataDirFor(config: BrokerConfig, engine: LogEngine): string | undefined {
  return engine === 'memory' ? undefined : config['log.dirs'][0];
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
