// The broker configs gregor acts on, keyed by Kafka's own name, with Kafka 4.x's type, default,
// valid values and update mode (looked up in Kafka's ServerConfigs, ServerLogConfigs, SocketServerConfigs,
// KRaftConfigs, ReplicationConfigs, CleanerConfig, GroupCoordinatorConfig, TransactionLogConfig,
// TransactionStateManagerConfig and DynamicBrokerConfig, and checked against the config reference that
// Kafka 4.3.1 generates). The doc lines are gregor's own words. The configs gregor only accepts and
// reports are in broker-configs-reported.ts; brokerConfigDefinitions is the two together.
//
// Defaults that differ from Kafka on purpose carry `kafkaDefault`:
//   listeners            PLAINTEXT://localhost:9092 (Kafka: PLAINTEXT://:9092) — a dev broker stays on loopback
//   log.dirs             ./data (Kafka: unset, falling back to log.dir=/tmp/kafka-logs)
//   node.id / broker.id  1, as Kafka's single-node KRaft quickstart config (Kafka: required / -1)
//   process.roles        broker,controller — gregor is one combined node (Kafka: required)
//   group.initial.rebalance.delay.ms  0 (Kafka: 3000) — no wait before the first rebalance of a new group
//   offsets.topic.replication.factor, transaction.state.log.replication.factor,
//   transaction.state.log.min.isr    1 (Kafka: 3, 3, 2) — there is only one broker
//   gregor.log.engine    gregor's own: file (segment files under log.dirs) or memory; when neither it nor log.dirs
//                        is set, the `gregor` command uses file (./data) and an in-process startBroker() memory
//   gregor.clock         gregor's own: system, or manual (coordinators, timers, retention move only when told)
//   gregor.http.listeners gregor's own: the HTTP listener (metrics, health, console); none for startBroker(),
//                        http://localhost:8080 for the `gregor` command
import {
  atLeast, between, bool, custom, double, eachOneOf, int, list, long, named, oneOf, oneOfIgnoringCase,
  short, string,
} from './define.js';
import { INT_MAX_VALUE, LONG_MAX_VALUE } from './config-types.js';
import { DEFAULT_SECURITY_PROTOCOL_MAP } from './listeners.js';
import { reportedBrokerConfigDefinitions } from './broker-configs-reported.js';
import { parseRegistryListener } from './schema-registry-listeners.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const MiB = 1024 * 1024;

/** 1 MiB plus the 12-byte log overhead: Kafka's default largest record batch. */
export const DEFAULT_MAX_MESSAGE_BYTES = MiB + 12;

export const COMPRESSION_TYPES = ['uncompressed', 'zstd', 'lz4', 'snappy', 'gzip', 'producer'] as const;
/** The authorizer gregor serves (security/authorizer/): Kafka's KRaft one, by its class name. */
export const STANDARD_AUTHORIZER_CLASS = 'org.apache.kafka.metadata.authorizer.StandardAuthorizer';

export const gzipLevel = custom<number>('[1,...,9] or -1',
  (v) => (v === -1 || (v >= 1 && v <= 9) ? null : 'must be between 1 and 9 or equal to -1'));
export const lz4Level = between(1, 17);
export const zstdLevel = between(-131072, 22);

const listenerForm = 'NAME://host:port,...';

export const actedOnBrokerConfigDefinitions = named({
  // --- identity and roles ---
  'node.id': int({ default: 1, valid: atLeast(0), doc: 'The id of this node in the cluster; gregor is node 1 unless told otherwise.' }),
  'broker.id': int({ default: 1, kafkaDefault: -1, doc: 'The broker id; on a KRaft node it must equal node.id, and follows it when only one is set.' }),
  'process.roles': list({ default: ['broker', 'controller'], kafkaDefault: [], valid: eachOneOf('broker', 'controller'), doc: 'The roles this node plays; gregor is always a combined broker and controller.' }),
  'controller.listener.names': list({ default: [], doc: 'Names of the listeners the controller uses; gregor has no separate controller listener.' }),
  'authorizer.class.name': string({ default: '', valid: custom(`empty or ${STANDARD_AUTHORIZER_CLASS}`, (v) => (v === '' || v === STANDARD_AUTHORIZER_CLASS ? null : `gregor serves Kafka's ${STANDARD_AUTHORIZER_CLASS} only`)), doc: 'Authorizer class: StandardAuthorizer checks every request against the ACLs (super.users, allow.everyone.if.no.acl.found); empty allows every request.' }),
  'broker.rack': string({ default: null, doc: 'The rack this broker is in, reported to clients for rack-aware fetching.' }),

  // --- listeners and network ---
  'listeners': list({ default: ['PLAINTEXT://localhost:9092'], kafkaDefault: ['PLAINTEXT://:9092'], valid: custom(listenerForm, () => null), mode: 'per-broker', doc: 'Addresses to listen on, as NAME://host:port; an empty host binds all interfaces, port 0 an ephemeral port.' }),
  'advertised.listeners': list({ default: null, valid: custom(listenerForm, () => null), doc: 'Addresses clients are told to connect to, if not the listeners themselves; 0.0.0.0 cannot be advertised.' }),
  'listener.security.protocol.map': string({ default: DEFAULT_SECURITY_PROTOCOL_MAP, mode: 'per-broker', doc: 'Security protocol of each listener name, as NAME:PROTOCOL pairs; PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL are served.' }),
  'inter.broker.listener.name': string({ default: null, doc: 'Listener other brokers use to reach this one; unused by a single gregor node.' }),
  'security.inter.broker.protocol': string({ default: 'PLAINTEXT', valid: oneOf('PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'), doc: 'Security protocol between brokers; unused by a single gregor node.' }),
  'early.start.listeners': list({ default: null, doc: 'Listeners started before the rest of the broker is ready.' }),
  'socket.request.max.bytes': int({ default: 100 * MiB, valid: atLeast(1), doc: 'Largest request, in bytes, a client may send; a larger size prefix closes the connection.' }),
  'socket.send.buffer.bytes': int({ default: 100 * 1024, doc: 'Socket send buffer size; -1 leaves the OS default.' }),
  'socket.receive.buffer.bytes': int({ default: 100 * 1024, doc: 'Socket receive buffer size; -1 leaves the OS default.' }),
  'socket.listen.backlog.size': int({ default: 50, valid: atLeast(1), doc: 'Length of the queue of connections waiting to be accepted.' }),
  'connections.max.idle.ms': long({ default: 10 * 60 * 1000, doc: 'A connection idle this long is closed.' }),
  'connections.max.reauth.ms': long({ default: 0, doc: 'Longest session before re-authentication; 0 disables it.' }),
  'sasl.enabled.mechanisms': list({ default: ['GSSAPI'], mode: 'per-broker', doc: 'SASL mechanisms offered to clients on SASL listeners (listener.name.<listener>.sasl.enabled.mechanisms per listener).' }),
  'sasl.server.max.receive.size': int({ default: 512 * 1024, doc: 'Largest SASL message accepted before authentication completes.' }),
  // --- client quotas (broker/quota/): the windows rates and token buckets are measured over ---
  'quota.window.num': int({ default: 11, valid: atLeast(1), doc: 'Samples kept for client quota rates.' }),
  'quota.window.size.seconds': int({ default: 1, valid: atLeast(1), doc: 'Length of one client quota sample, in seconds.' }),
  'controller.quota.window.num': int({ default: 11, valid: atLeast(1), doc: 'Samples kept for controller mutation quota rates.' }),
  'controller.quota.window.size.seconds': int({ default: 1, valid: atLeast(1), doc: 'Length of one controller mutation quota sample, in seconds.' }),
  'max.connections': int({ default: INT_MAX_VALUE, valid: atLeast(0), mode: 'cluster-wide', doc: 'Most connections the broker accepts at once.' }),
  'max.connections.per.ip': int({ default: INT_MAX_VALUE, valid: atLeast(0), mode: 'cluster-wide', doc: 'Most connections accepted from one IP address.' }),
  'max.connections.per.ip.overrides': string({ default: '', mode: 'cluster-wide', doc: 'Per-address connection limits, as host:count pairs.' }),
  'max.connection.creation.rate': int({ default: INT_MAX_VALUE, valid: atLeast(0), mode: 'cluster-wide', doc: 'Most new connections accepted per second.' }),
  'queued.max.requests': int({ default: 500, valid: atLeast(1), doc: 'Most requests waiting to be handled before reading pauses.' }),
  'queued.max.request.bytes': long({ default: -1, doc: 'Most request bytes waiting to be handled before reading pauses; -1 for no limit.' }),
  'request.timeout.ms': int({ default: 30000, doc: 'How long the broker waits for a response from another node.' }),
  'num.network.threads': int({ default: 3, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads reading and writing the network (Kafka tuning; gregor runs on the event loop).' }),
  'num.io.threads': int({ default: 8, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads handling requests (Kafka tuning; gregor runs on the event loop).' }),
  'background.threads': int({ default: 10, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads for background work (Kafka tuning).' }),

  // --- topics and requests ---
  'auto.create.topics.enable': bool({ default: true, doc: 'Create a topic when a client asks for metadata or produces to a topic that does not exist.' }),
  'delete.topic.enable': bool({ default: true, doc: 'Allow topics to be deleted.' }),
  'num.partitions': int({ default: 1, valid: atLeast(1), doc: 'Partitions of a topic created without a count (including auto-created topics).' }),
  'default.replication.factor': int({ default: 1, doc: 'Replication factor of a topic created without one; a single gregor node holds one replica.' }),
  'min.insync.replicas': int({ default: 1, valid: atLeast(1), mode: 'cluster-wide', doc: 'Replicas that must hold a write before acks=all succeeds.' }),
  'unclean.leader.election.enable': bool({ default: false, mode: 'cluster-wide', doc: 'Allow a replica that is out of sync to become leader, losing data.' }),
  'auto.leader.rebalance.enable': bool({ default: true, doc: 'Move leadership back to preferred replicas in the background.' }),
  'message.max.bytes': int({ default: DEFAULT_MAX_MESSAGE_BYTES, valid: atLeast(0), mode: 'cluster-wide', doc: 'Largest record batch, in bytes, a topic accepts (topic-level max.message.bytes overrides it).' }),
  'compression.type': string({ default: 'producer', valid: oneOf(...COMPRESSION_TYPES), mode: 'cluster-wide', doc: 'Compression the broker stores batches with; producer keeps what the producer sent.' }),
  'compression.gzip.level': int({ default: -1, valid: gzipLevel, mode: 'cluster-wide', doc: 'Level used when compression.type is gzip.' }),
  'compression.lz4.level': int({ default: 9, valid: lz4Level, mode: 'cluster-wide', doc: 'Level used when compression.type is lz4.' }),
  'compression.zstd.level': int({ default: 3, valid: zstdLevel, mode: 'cluster-wide', doc: 'Level used when compression.type is zstd.' }),
  'fetch.max.bytes': int({ default: 55 * MiB, valid: atLeast(1024), doc: 'Most bytes one fetch response carries.' }),
  'max.incremental.fetch.session.cache.slots': int({ default: 1000, valid: atLeast(0), doc: 'Most incremental fetch sessions kept at once.' }),
  'num.replica.fetchers': int({ default: 1, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads fetching from leaders on other brokers.' }),
  'replica.lag.time.max.ms': long({ default: 30000, doc: 'A follower that has not caught up for this long leaves the in-sync replicas.' }),

  // --- cluster mode (src/cluster/): without endpoints gregor is one broker and loads no etcd code ---
  'gregor.cluster.etcd.endpoints': list({ default: null, valid: custom('http://host:port,...', (v) => (v.every((e) => /^https?:\/\/[^/\s]+\/?$/.test(e)) ? null : 'each endpoint must be http://host:port or https://host:port')), doc: 'etcd endpoints of the cluster this broker joins (http://127.0.0.1:2379,...); unset: a single broker without etcd.' }),
  'gregor.cluster.name': string({ default: 'gregor', valid: custom('a name without /', (v) => (v !== null && v !== '' && !v.includes('/') ? null : 'must be a non-empty name without /')), doc: 'The cluster to join: its metadata lives under /<name>/ in etcd.' }),
  // --- gregor's clock (issue #21) ---
  'gregor.clock': string({ default: 'system', valid: oneOf('system', 'manual'), doc: 'The broker\'s time: system (wall time), or manual (starts at the wall time and moves only through POST /v1/clock/advance or broker.clock.advance; for tests).' }),

  // --- the HTTP listener (src/http): metrics, health, console ---
  'gregor.http.listeners': list({ default: [], valid: custom('http://host:port,...', () => null), doc: 'Addresses of the HTTP listener (/metrics, /healthz, /readyz, the console), as http://host:port; empty for none. Unset: none for startBroker(), http://localhost:8080 for the gregor command.' }),

  // --- log storage ---
  'gregor.log.engine': string({ default: 'file', valid: oneOf('file', 'memory'), doc: 'Where partitions are kept: segment files under log.dirs, or memory only (gone at exit). Unset with log.dirs unset: file for the gregor command, memory for startBroker().' }),
  'log.dirs': list({ default: ['./data'], kafkaDefault: null, doc: 'Directories holding partition data, comma-separated; when unset, log.dir is used.' }),
  'log.dir': list({ default: ['/tmp/kafka-logs'], doc: 'The data directory used when log.dirs is not set.' }),
  'log.segment.bytes': int({ default: 1024 * MiB, valid: atLeast(MiB), mode: 'cluster-wide', doc: 'Size at which a new log segment is started.' }),
  'log.roll.ms': long({ default: null, mode: 'cluster-wide', doc: 'Age at which a new log segment is started; when unset, log.roll.hours is used.' }),
  'log.roll.hours': int({ default: 168, valid: atLeast(1), doc: 'Age in hours at which a new log segment is started.' }),
  'log.roll.jitter.ms': long({ default: null, mode: 'cluster-wide', doc: 'Most random time taken off the roll age; when unset, log.roll.jitter.hours is used.' }),
  'log.roll.jitter.hours': int({ default: 0, valid: atLeast(0), doc: 'Most random time in hours taken off the roll age.' }),
  'log.retention.ms': long({ default: null, mode: 'cluster-wide', doc: 'How long a log segment is kept; -1 keeps it forever; when unset, log.retention.minutes then log.retention.hours is used.' }),
  'log.retention.minutes': int({ default: null, doc: 'How long, in minutes, a log segment is kept, unless log.retention.ms is set.' }),
  'log.retention.hours': int({ default: 168, doc: 'How long, in hours, a log segment is kept, unless log.retention.ms or log.retention.minutes is set.' }),
  'log.retention.bytes': long({ default: -1, mode: 'cluster-wide', doc: 'Most bytes a partition keeps before old segments are deleted; -1 for no limit.' }),
  'log.retention.check.interval.ms': long({ default: 5 * 60 * 1000, valid: atLeast(1), doc: 'How often segments are checked for deletion.' }),
  'log.cleanup.policy': list({ default: ['delete'], valid: eachOneOf('compact', 'delete'), mode: 'cluster-wide', doc: 'What happens to old segments: delete them, compact them by key, or both.' }),
  'log.index.size.max.bytes': int({ default: 10 * MiB, valid: atLeast(4), mode: 'cluster-wide', doc: 'Largest offset index file; a full index starts a new segment.' }),
  'log.index.interval.bytes': int({ default: 4096, valid: atLeast(0), mode: 'cluster-wide', doc: 'Bytes between entries in the offset index.' }),
  'log.flush.interval.messages': long({ default: LONG_MAX_VALUE, valid: atLeast(1), mode: 'cluster-wide', doc: 'Records appended before the log is forced to disk.' }),
  'log.flush.interval.ms': long({ default: null, mode: 'cluster-wide', doc: 'Longest time data waits before being forced to disk; when unset, log.flush.scheduler.interval.ms is used.' }),
  'log.flush.scheduler.interval.ms': long({ default: LONG_MAX_VALUE, doc: 'How often logs are checked for a needed flush.' }),
  'log.flush.offset.checkpoint.interval.ms': int({ default: 60000, valid: atLeast(0), doc: 'How often the recovery point of each log is saved.' }),
  'log.flush.start.offset.checkpoint.interval.ms': int({ default: 60000, valid: atLeast(0), doc: 'How often the log start offset of each log is saved.' }),
  'log.segment.delete.delay.ms': long({ default: 60000, valid: atLeast(0), mode: 'cluster-wide', doc: 'How long a deleted segment file lingers before it is removed from disk.' }),
  'log.preallocate': bool({ default: false, mode: 'cluster-wide', doc: 'Allocate a new segment file at full size when it is created.' }),
  'log.message.timestamp.type': string({ default: 'CreateTime', valid: oneOf('CreateTime', 'LogAppendTime'), mode: 'cluster-wide', doc: 'Whether record timestamps are the producer\'s (CreateTime) or the broker\'s append time.' }),
  'log.message.timestamp.before.max.ms': long({ default: LONG_MAX_VALUE, valid: atLeast(0), mode: 'cluster-wide', doc: 'How far in the past a CreateTime timestamp may be before the batch is rejected.' }),
  'log.message.timestamp.after.max.ms': long({ default: HOUR_MS, valid: atLeast(0), mode: 'cluster-wide', doc: 'How far in the future a CreateTime timestamp may be before the batch is rejected.' }),
  'log.dir.failure.timeout.ms': long({ default: 30000, valid: atLeast(1), doc: 'How long the broker waits after a log directory fails before shutting down.' }),
  'num.recovery.threads.per.data.dir': int({ default: 2, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads per data directory recovering logs at start-up and flushing at shutdown.' }),
  'log.local.retention.ms': long({ default: -2, valid: atLeast(-2), mode: 'cluster-wide', doc: 'With tiered storage, how long segments stay local; -2 follows log.retention.ms.' }),
  'log.local.retention.bytes': long({ default: -2, valid: atLeast(-2), mode: 'cluster-wide', doc: 'With tiered storage, most local bytes per partition; -2 follows log.retention.bytes.' }),
  'remote.log.storage.system.enable': bool({ default: false, doc: 'Enable tiered storage on this broker (not supported by gregor).' }),

  // --- log cleaner (compaction) ---
  'log.cleaner.enable': bool({ default: true, doc: 'Run the log cleaner, which compacts topics whose cleanup.policy includes compact.' }),
  'log.cleaner.threads': int({ default: 1, valid: atLeast(0), mode: 'cluster-wide', doc: 'Background threads compacting logs.' }),
  'log.cleaner.backoff.ms': long({ default: 15000, valid: atLeast(0), mode: 'cluster-wide', doc: 'How long the cleaner sleeps when no log needs cleaning.' }),
  'log.cleaner.dedupe.buffer.size': long({ default: 128 * MiB, mode: 'cluster-wide', doc: 'Memory for the key map used while compacting, across all cleaner threads.' }),
  'log.cleaner.io.buffer.size': int({ default: 512 * 1024, valid: atLeast(0), mode: 'cluster-wide', doc: 'Memory for cleaner read and write buffers, across all cleaner threads.' }),
  'log.cleaner.io.buffer.load.factor': double({ default: 0.9, mode: 'cluster-wide', doc: 'How full the cleaner\'s key map may become.' }),
  'log.cleaner.io.max.bytes.per.second': double({ default: Number.MAX_VALUE, mode: 'cluster-wide', doc: 'Throttle on the cleaner\'s combined read and write rate.' }),
  'log.cleaner.min.cleanable.ratio': double({ default: 0.5, valid: between(0, 1), mode: 'cluster-wide', doc: 'Share of a log that must be uncompacted before it is cleaned.' }),
  'log.cleaner.delete.retention.ms': long({ default: DAY_MS, valid: atLeast(0), mode: 'cluster-wide', doc: 'How long tombstones are kept in compacted topics.' }),
  'log.cleaner.min.compaction.lag.ms': long({ default: 0, valid: atLeast(0), mode: 'cluster-wide', doc: 'Youngest a record may be and still be compacted.' }),
  'log.cleaner.max.compaction.lag.ms': long({ default: LONG_MAX_VALUE, valid: atLeast(1), mode: 'cluster-wide', doc: 'Oldest a record may get before it must be compacted.' }),

  // --- group coordinator and committed offsets ---
  'group.min.session.timeout.ms': int({ default: 6000, doc: 'Shortest session timeout a classic-protocol consumer may ask for.' }),
  'group.max.session.timeout.ms': int({ default: 1800000, doc: 'Longest session timeout a classic-protocol consumer may ask for.' }),
  'group.initial.rebalance.delay.ms': int({ default: 0, kafkaDefault: 3000, doc: 'How long a new classic group waits for more members before its first rebalance; gregor does not wait.' }),
  'group.max.size': int({ default: INT_MAX_VALUE, valid: atLeast(1), doc: 'Most members in one classic group.' }),
  'group.coordinator.rebalance.protocols': list({ default: ['classic', 'consumer', 'streams'], valid: eachOneOf('consumer', 'classic', 'share', 'streams'), doc: 'Group protocols the coordinator serves.' }),
  'group.coordinator.threads': int({ default: 4, valid: atLeast(1), doc: 'Threads running the group coordinator (Kafka tuning).' }),
  'group.coordinator.append.linger.ms': int({ default: -1, valid: atLeast(-1), doc: 'How long the coordinator gathers records before writing them; -1 writes when the batch is full or nothing else is queued.' }),
  'group.consumer.session.timeout.ms': int({ default: 45000, valid: atLeast(1), doc: 'Session timeout of members of consumer-protocol groups.' }),
  'group.consumer.min.session.timeout.ms': int({ default: 45000, valid: atLeast(1), doc: 'Shortest session timeout of consumer-protocol groups.' }),
  'group.consumer.max.session.timeout.ms': int({ default: 60000, valid: atLeast(1), doc: 'Longest session timeout of consumer-protocol groups.' }),
  'group.consumer.heartbeat.interval.ms': int({ default: 5000, valid: atLeast(1), doc: 'Heartbeat interval told to members of consumer-protocol groups.' }),
  'group.consumer.min.heartbeat.interval.ms': int({ default: 5000, valid: atLeast(1), doc: 'Shortest heartbeat interval of consumer-protocol groups.' }),
  'group.consumer.max.heartbeat.interval.ms': int({ default: 15000, valid: atLeast(1), doc: 'Longest heartbeat interval of consumer-protocol groups.' }),
  'group.consumer.max.size': int({ default: INT_MAX_VALUE, valid: atLeast(1), doc: 'Most members in one consumer-protocol group.' }),
  'group.consumer.migration.policy': string({ default: 'bidirectional', valid: oneOfIgnoringCase('DISABLED', 'DOWNGRADE', 'UPGRADE', 'BIDIRECTIONAL'), doc: 'Which way a group with members may convert between the classic and consumer protocols (KIP-848 online upgrade and downgrade).' }),
  'group.consumer.assignors': list({ default: ['uniform', 'range'], doc: 'Server-side assignors of consumer-protocol groups; the first is the default.' }),
  'group.share.assignment.interval.ms': int({ default: 1000, valid: atLeast(0), mode: 'cluster-wide', doc: 'Least time between two target assignments of a share group.' }),
  'group.share.min.assignment.interval.ms': int({ default: 0, valid: atLeast(0), doc: 'Shortest assignment interval a share group may use.' }),
  'group.share.max.assignment.interval.ms': int({ default: 15000, valid: atLeast(0), doc: 'Longest assignment interval a share group may use.' }),
  'group.share.session.timeout.ms': int({ default: 45000, valid: atLeast(1), doc: 'Session timeout of members of share groups.' }),
  'group.share.min.session.timeout.ms': int({ default: 45000, valid: atLeast(1), doc: 'Shortest session timeout of share groups.' }),
  'group.share.max.session.timeout.ms': int({ default: 60000, valid: atLeast(1), doc: 'Longest session timeout of share groups.' }),
  'group.share.heartbeat.interval.ms': int({ default: 5000, valid: atLeast(1), doc: 'Heartbeat interval told to members of share groups.' }),
  'group.share.min.heartbeat.interval.ms': int({ default: 5000, valid: atLeast(1), doc: 'Shortest heartbeat interval of share groups.' }),
  'group.share.max.heartbeat.interval.ms': int({ default: 15000, valid: atLeast(1), doc: 'Longest heartbeat interval of share groups.' }),
  // The share coordinator's timers (Kafka's ShareCoordinatorConfig defines both with defineInternal: not reported).
  'share.coordinator.state.topic.prune.interval.ms': int({ default: 300000, valid: atLeast(1), internal: true, doc: 'How often the share coordinator deletes the records of __share_group_state that newer snapshots made redundant.' }),
  'share.coordinator.cold.partition.snapshot.interval.ms': int({ default: 300000, valid: atLeast(1), internal: true, doc: 'How long a share partition\'s state may go without a snapshot before the share coordinator writes one (so pruning can pass it).' }),
  'group.share.max.size': int({ default: 200, valid: between(1, 1000), doc: 'Most members in one share group.' }),
  'group.streams.assignment.interval.ms': int({ default: 1000, valid: atLeast(0), mode: 'cluster-wide', doc: 'Least time between two target assignments of a streams group.' }),
  'group.streams.heartbeat.interval.ms': int({ default: 5000, valid: atLeast(1), doc: 'Heartbeat interval told to members of streams groups.' }),
  'group.streams.initial.rebalance.delay.ms': int({ default: 3000, valid: atLeast(0), doc: 'How long a new streams group waits before its first assignment.' }),
  'group.streams.max.assignment.interval.ms': int({ default: 15000, valid: atLeast(0), doc: 'Longest assignment interval a streams group may use.' }),
  'group.streams.max.heartbeat.interval.ms': int({ default: 15000, valid: atLeast(1), doc: 'Longest heartbeat interval of streams groups.' }),
  'group.streams.max.session.timeout.ms': int({ default: 60000, valid: atLeast(1), doc: 'Longest session timeout of streams groups.' }),
  'group.streams.max.size': int({ default: INT_MAX_VALUE, valid: atLeast(1), doc: 'Most members in one streams group.' }),
  'group.streams.max.standby.replicas': int({ default: 2, valid: atLeast(0), doc: 'Most standby replicas a streams group may ask for.' }),
  'group.streams.min.assignment.interval.ms': int({ default: 0, valid: atLeast(0), doc: 'Shortest assignment interval a streams group may use.' }),
  'group.streams.min.heartbeat.interval.ms': int({ default: 5000, valid: atLeast(1), doc: 'Shortest heartbeat interval of streams groups.' }),
  'group.streams.min.session.timeout.ms': int({ default: 45000, valid: atLeast(1), doc: 'Shortest session timeout of streams groups.' }),
  'group.streams.num.standby.replicas': int({ default: 0, valid: atLeast(0), doc: 'Standby replicas per task in streams groups.' }),
  'group.streams.session.timeout.ms': int({ default: 45000, valid: atLeast(1), doc: 'Session timeout of members of streams groups.' }),
  'offset.metadata.max.bytes': int({ default: 4096, doc: 'Longest metadata string stored with a committed offset.' }),
  'offsets.load.buffer.size': int({ default: 5 * MiB, valid: atLeast(1), doc: 'Batch size for reading the offsets topic at load.' }),
  'offsets.retention.minutes': int({ default: 7 * 24 * 60, valid: atLeast(1), doc: 'How long committed offsets of an empty group are kept.' }),
  'offsets.retention.check.interval.ms': long({ default: 600000, valid: atLeast(1), doc: 'How often expired offsets are looked for.' }),
  'offsets.topic.num.partitions': int({ default: 50, valid: atLeast(1), doc: 'Partitions of __consumer_offsets (fixed once the topic exists).' }),
  'offsets.topic.segment.bytes': int({ default: 100 * MiB, valid: atLeast(1), doc: 'Segment size of __consumer_offsets.' }),
  'offsets.topic.replication.factor': short({ default: 1, kafkaDefault: 3, valid: atLeast(1), doc: 'Replication factor of __consumer_offsets; 1 on a single gregor node.' }),
  'offsets.topic.compression.codec': int({ default: 0, doc: 'Compression codec id for offsets topic writes (0 = none).' }),
  'offsets.commit.timeout.ms': int({ default: 5000, valid: atLeast(1), doc: 'How long an offset commit waits to be durable before failing.' }),

  // --- transactions and producer ids ---
  'transaction.state.log.num.partitions': int({ default: 50, valid: atLeast(1), doc: 'Partitions of __transaction_state (fixed once the topic exists).' }),
  'transaction.state.log.segment.bytes': int({ default: 100 * MiB, valid: atLeast(1), doc: 'Segment size of __transaction_state.' }),
  'transaction.state.log.replication.factor': short({ default: 1, kafkaDefault: 3, valid: atLeast(1), doc: 'Replication factor of __transaction_state; 1 on a single gregor node.' }),
  'transaction.state.log.min.isr': int({ default: 1, kafkaDefault: 2, valid: atLeast(1), doc: 'min.insync.replicas of __transaction_state; 1 on a single gregor node.' }),
  'transaction.state.log.load.buffer.size': int({ default: 5 * MiB, valid: atLeast(1), doc: 'Batch size for reading __transaction_state at load.' }),
  'transaction.max.timeout.ms': int({ default: 15 * 60 * 1000, valid: atLeast(1), doc: 'Longest transaction timeout a producer may ask for.' }),
  'transactional.id.expiration.ms': int({ default: 7 * DAY_MS, valid: atLeast(1), doc: 'A transactional id unused this long is forgotten.' }),
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': int({ default: 10000, valid: atLeast(1), doc: 'How often timed-out transactions are aborted.' }),
  'transaction.remove.expired.transaction.cleanup.interval.ms': int({ default: HOUR_MS, valid: atLeast(1), doc: 'How often expired transactional ids are removed.' }),
  'transaction.partition.verification.enable': bool({ default: true, mode: 'cluster-wide', doc: 'Check that a partition was added to a transaction before accepting transactional writes to it.' }),
  'producer.id.expiration.ms': int({ default: DAY_MS, valid: atLeast(1), mode: 'cluster-wide', doc: 'A producer id with no writes for this long is forgotten by a partition.' }),

  // --- schema registry (src/schema-registry/) ---
  'gregor.schema.registry.listeners': list({
    default: [],
    valid: custom<string[]>('http://host:port, comma-separated', (items) => items.map(parseRegistryListener).find((r): r is string => typeof r === 'string') ?? null),
    doc: "Where the schema registry (Confluent's REST API) listens on a port of its own: http://host:port, comma-separated. Unset: off for startBroker(); the gregor command uses http://localhost:8081 (a warning, not a failure, when that port is taken).",
  }),
});

/** Every broker config gregor knows: the ones it acts on, then the ones it only accepts and reports. */
export const brokerConfigDefinitions = { ...actedOnBrokerConfigDefinitions, ...reportedBrokerConfigDefinitions };

export type BrokerConfigKey = keyof typeof brokerConfigDefinitions;

/** Looks up a definition by name (undefined for a key gregor does not know). */
export function brokerConfigDefinition(name: string) {
  return Object.hasOwn(brokerConfigDefinitions, name)
    ? brokerConfigDefinitions[name as BrokerConfigKey]
    : undefined;
}

const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['log.retention.ms', 'log.retention.minutes', 'log.retention.hours'],
  ['log.roll.ms', 'log.roll.hours'],
  ['log.roll.jitter.ms', 'log.roll.jitter.hours'],
  ['log.flush.interval.ms', 'log.flush.scheduler.interval.ms'],
];

/**
 * Synonyms of a broker config in Kafka's order of precedence (the first that is set wins), as
 * DescribeConfigs lists them; every member of a group has the whole group. Other keys are their own only synonym.
 */
export function brokerConfigSynonyms(name: string): readonly string[] {
  return SYNONYM_GROUPS.find((group) => group.includes(name)) ?? [name];
}
