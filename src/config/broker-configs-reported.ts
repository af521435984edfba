// The broker configs gregor accepts and reports but does not act on: TLS and SASL, quotas, the KRaft
// quorum, replica fetchers, tiered storage, share groups, metrics. With broker-configs.ts
// (the configs gregor acts on) they make up the set Kafka 4.3.1 reports for a broker, so DescribeConfigs
// and `kafka-configs --describe --all` list the same names with Kafka's type, default, read-only flag
// and sensitivity. Types, defaults and validators were read from Kafka 4.3.1's broker ConfigDef; update
// modes from its DynamicBrokerConfig, checked against a 4.3.1 broker (per-broker keys are the ones it
// refuses at the cluster-default level). The doc lines are gregor's own words.
//
// Defaults that differ from Kafka on purpose carry `kafkaDefault`:
//   share.coordinator.state.topic.replication.factor, share.coordinator.state.topic.min.isr
//                              1 (Kafka: 3, 2) — there is only one broker
// Defaults that Kafka takes from its JVM: ssl.keymanager.algorithm (SunX509) and ssl.trustmanager.algorithm
// (PKIX) are OpenJDK's.
import {
  atLeast, between, bool, className, custom, double, int, list, long, named, oneOf, oneOfIgnoringCase,
  password, short, string,
} from './define.js';
import { LONG_MAX_VALUE } from './config-types.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const MiB = 1024 * 1024;

const nonEmptyString = custom<string>('non-empty string', (v) => (v.trim() === '' ? 'must not be empty' : null));

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^\s:@]+):\d{1,5}$/;

/** Each entry id@host:port, as Kafka's quorum voter parser requires. */
const quorumVoters = custom<string[]>('non-empty list', (items) => {
  const bad = items.find((item) => !/^\d+@/.test(item) || !HOST_PORT.test(item.slice(item.indexOf('@') + 1)));
  return bad === undefined ? null : `${JSON.stringify(bad)} is not of the form id@host:port`;
});

/** Each entry host:port. */
const hostPorts = custom<string[]>('non-empty list', (items) => {
  const bad = items.find((item) => !HOST_PORT.test(item));
  return bad === undefined ? null : `${JSON.stringify(bad)} is not of the form host:port`;
});

export const reportedBrokerConfigDefinitions = named({
  // Plugins: Java classes gregor does not load.
  'create.topic.policy.class.name': className({ default: null, doc: 'Class that checks topic creations (a Java plugin; not loaded by gregor).' }),
  'alter.config.policy.class.name': className({ default: null, doc: 'Class that checks config changes (a Java plugin; not loaded by gregor).' }),

  // TLS: accepted and reported here; the keys a TLS listener reads are listed in not-acted-on.ts (TLS_KEYS_ACTED_ON).
  'ssl.allow.dn.changes': bool({ default: false, doc: 'Allow a reloaded keystore certificate to change its distinguished name.' }),
  'ssl.allow.san.changes': bool({ default: false, doc: 'Allow a reloaded keystore certificate to change its subject alternative names.' }),
  'ssl.cipher.suites': list({ default: [], mode: 'per-broker', doc: 'TLS cipher suites to offer; empty means every suite the TLS engine supports.' }),
  'ssl.client.auth': string({ default: 'none', valid: oneOf('required', 'requested', 'none'), mode: 'per-broker', doc: 'Whether TLS clients must (required), may (requested) or need not (none) present a certificate.' }),
  'ssl.enabled.protocols': list({ default: ['TLSv1.2', 'TLSv1.3'], mode: 'per-broker', doc: 'TLS protocol versions accepted on TLS listeners.' }),
  'ssl.endpoint.identification.algorithm': string({ default: 'https', mode: 'per-broker', doc: 'How a peer\'s host name is checked against its certificate; empty turns the check off.' }),
  'ssl.engine.factory.class': className({ default: null, mode: 'per-broker', doc: 'Plugin class that builds TLS engines, in place of the built-in one.' }),
  'ssl.key.password': password({ default: null, mode: 'per-broker', doc: 'Password of the private key inside the keystore.' }),
  'ssl.keymanager.algorithm': string({ default: 'SunX509', mode: 'per-broker', doc: 'Key manager factory algorithm for TLS.' }),
  'ssl.keystore.certificate.chain': password({ default: null, mode: 'per-broker', doc: 'Certificate chain in PEM form, when the keystore is given inline.' }),
  'ssl.keystore.key': password({ default: null, mode: 'per-broker', doc: 'Private key in PEM form, when the keystore is given inline.' }),
  'ssl.keystore.location': string({ default: null, mode: 'per-broker', doc: 'Path of the keystore file holding this broker\'s certificate.' }),
  'ssl.keystore.password': password({ default: null, mode: 'per-broker', doc: 'Password of the keystore file.' }),
  'ssl.keystore.type': string({ default: 'JKS', mode: 'per-broker', doc: 'Format of the keystore file (JKS, PKCS12, PEM).' }),
  'ssl.principal.mapping.rules': string({ default: 'DEFAULT', doc: 'Rules turning a client certificate\'s distinguished name into a principal name.' }),
  'ssl.protocol': string({ default: 'TLSv1.3', mode: 'per-broker', doc: 'TLS protocol used to create the TLS context.' }),
  'ssl.provider': string({ default: null, mode: 'per-broker', doc: 'Security provider for TLS; empty uses the platform\'s default.' }),
  'ssl.secure.random.implementation': string({ default: null, mode: 'per-broker', doc: 'Random number generator used for TLS.' }),
  'ssl.trustmanager.algorithm': string({ default: 'PKIX', mode: 'per-broker', doc: 'Trust manager factory algorithm for TLS.' }),
  'ssl.truststore.certificates': password({ default: null, mode: 'per-broker', doc: 'Trusted certificates in PEM form, when the truststore is given inline.' }),
  'ssl.truststore.location': string({ default: null, mode: 'per-broker', doc: 'Path of the truststore file of trusted certificates.' }),
  'ssl.truststore.password': password({ default: null, mode: 'per-broker', doc: 'Password of the truststore file.' }),
  'ssl.truststore.type': string({ default: 'JKS', mode: 'per-broker', doc: 'Format of the truststore file (JKS, PKCS12, PEM).' }),

  // SASL: accepted and reported; gregor does not authenticate clients.
  'sasl.client.callback.handler.class': className({ default: null, doc: 'Callback handler class for SASL clients this broker opens.' }),
  'sasl.jaas.config': password({ default: null, mode: 'per-broker', doc: 'JAAS login settings, inline, in place of a JAAS file.' }),
  'sasl.kerberos.kinit.cmd': string({ default: '/usr/bin/kinit', mode: 'per-broker', doc: 'Path of the Kerberos kinit command.' }),
  'sasl.kerberos.min.time.before.relogin': long({ default: 60000, mode: 'per-broker', doc: 'Least time between two Kerberos ticket refreshes.' }),
  'sasl.kerberos.principal.to.local.rules': list({ default: ['DEFAULT'], mode: 'per-broker', doc: 'Rules turning Kerberos principal names into short names.' }),
  'sasl.kerberos.service.name': string({ default: null, mode: 'per-broker', doc: 'Kerberos principal name the broker runs as.' }),
  'sasl.kerberos.ticket.renew.jitter': double({ default: 0.05, mode: 'per-broker', doc: 'Random share added to the Kerberos ticket renewal time.' }),
  'sasl.kerberos.ticket.renew.window.factor': double({ default: 0.8, mode: 'per-broker', doc: 'Share of a Kerberos ticket\'s life after which it is renewed.' }),
  'sasl.login.callback.handler.class': className({ default: null, doc: 'Callback handler class for SASL logins.' }),
  'sasl.login.class': className({ default: null, doc: 'Login class for SASL (Kafka picks one per mechanism when unset).' }),
  'sasl.login.connect.timeout.ms': int({ default: null, doc: 'Connect timeout of the login\'s HTTP calls (OAUTHBEARER); unset leaves the default.' }),
  'sasl.login.read.timeout.ms': int({ default: null, doc: 'Read timeout of the login\'s HTTP calls (OAUTHBEARER); unset leaves the default.' }),
  'sasl.login.refresh.buffer.seconds': short({ default: 300, mode: 'per-broker', doc: 'How long before a login credential expires it is refreshed, in seconds.' }),
  'sasl.login.refresh.min.period.seconds': short({ default: 60, mode: 'per-broker', doc: 'Least time between two login credential refreshes, in seconds.' }),
  'sasl.login.refresh.window.factor': double({ default: 0.8, mode: 'per-broker', doc: 'Share of a login credential\'s life after which it is refreshed.' }),
  'sasl.login.refresh.window.jitter': double({ default: 0.05, mode: 'per-broker', doc: 'Random share added to the login refresh time.' }),
  'sasl.login.retry.backoff.max.ms': long({ default: 10000, doc: 'Longest wait between retries of a failed login.' }),
  'sasl.login.retry.backoff.ms': long({ default: 100, doc: 'First wait before retrying a failed login.' }),
  'sasl.mechanism.controller.protocol': string({ default: 'GSSAPI', doc: 'SASL mechanism used to reach the controllers.' }),
  'sasl.mechanism.inter.broker.protocol': string({ default: 'GSSAPI', mode: 'per-broker', doc: 'SASL mechanism used between brokers.' }),
  'sasl.oauthbearer.assertion.algorithm': string({ default: 'RS256', valid: oneOfIgnoringCase('ES256', 'RS256'), doc: 'Signing algorithm of the JWT assertion a broker sends for OAuth.' }),
  'sasl.oauthbearer.assertion.claim.aud': string({ default: null, doc: 'Audience claim put in the OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.claim.exp.seconds': int({ default: 300, valid: between(0, 86400), doc: 'Lifetime, in seconds, of the OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.claim.iss': string({ default: null, doc: 'Issuer claim put in the OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.claim.jti.include': bool({ default: false, doc: 'Put a unique id claim in the OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.claim.nbf.seconds': int({ default: 60, valid: between(0, 3600), doc: 'How far back, in seconds, the OAuth JWT assertion\'s not-before claim is set.' }),
  'sasl.oauthbearer.assertion.claim.sub': string({ default: null, doc: 'Subject claim put in the OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.file': string({ default: null, doc: 'File holding a ready-made OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.private.key.file': string({ default: null, doc: 'Private key file that signs the OAuth JWT assertion.' }),
  'sasl.oauthbearer.assertion.private.key.passphrase': password({ default: null, doc: 'Passphrase of the OAuth assertion\'s private key file.' }),
  'sasl.oauthbearer.assertion.template.file': string({ default: null, doc: 'Template file for the OAuth JWT assertion\'s header and claims.' }),
  'sasl.oauthbearer.client.credentials.client.id': string({ default: null, doc: 'OAuth client id for the client-credentials grant.' }),
  'sasl.oauthbearer.client.credentials.client.secret': password({ default: null, doc: 'OAuth client secret for the client-credentials grant.' }),
  'sasl.oauthbearer.clock.skew.seconds': int({ default: 30, doc: 'Allowed clock difference, in seconds, when checking OAuth token times.' }),
  'sasl.oauthbearer.expected.audience': list({ default: [], doc: 'Audiences an OAuth token must name to be accepted.' }),
  'sasl.oauthbearer.expected.issuer': string({ default: null, doc: 'Issuer an OAuth token must name to be accepted.' }),
  'sasl.oauthbearer.jwks.endpoint.refresh.ms': long({ default: HOUR_MS, doc: 'How often the OAuth key set is fetched again.' }),
  'sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms': long({ default: 10000, doc: 'Longest wait between retries of an OAuth key set fetch.' }),
  'sasl.oauthbearer.jwks.endpoint.retry.backoff.ms': long({ default: 100, doc: 'First wait before retrying an OAuth key set fetch.' }),
  'sasl.oauthbearer.jwks.endpoint.url': string({ default: null, doc: 'Where the OAuth key set that verifies tokens is fetched from.' }),
  'sasl.oauthbearer.jwt.retriever.class': className({ default: 'org.apache.kafka.common.security.oauthbearer.DefaultJwtRetriever', doc: 'Class that obtains OAuth tokens.' }),
  'sasl.oauthbearer.jwt.validator.class': className({ default: 'org.apache.kafka.common.security.oauthbearer.DefaultJwtValidator', doc: 'Class that checks OAuth tokens.' }),
  'sasl.oauthbearer.scope': string({ default: null, doc: 'Scope asked for when obtaining an OAuth token.' }),
  'sasl.oauthbearer.scope.claim.name': string({ default: 'scope', doc: 'Name of the OAuth token claim holding its scopes.' }),
  'sasl.oauthbearer.sub.claim.name': string({ default: 'sub', doc: 'Name of the OAuth token claim holding its subject.' }),
  'sasl.oauthbearer.token.endpoint.url': string({ default: null, doc: 'Where OAuth tokens are obtained from.' }),
  'sasl.server.callback.handler.class': className({ default: null, doc: 'Callback handler class for the broker\'s SASL server side.' }),

  // Principals, providers and delegation tokens: accepted and reported.
  'principal.builder.class': className({ default: 'org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder', mode: 'per-broker', doc: 'Class that builds a connection\'s principal from its authentication.' }),
  'security.providers': string({ default: null, doc: 'Classes supplying extra security algorithms.' }),
  'connection.failed.authentication.delay.ms': int({ default: 100, valid: atLeast(0), doc: 'Delay before closing a connection whose authentication failed.' }),
  'config.providers': list({ default: [], mode: 'cluster-wide', doc: 'Names of config providers that may resolve indirect values in configs.' }),
  'delegation.token.secret.key': password({ default: null, doc: 'Secret that signs delegation tokens; unset disables them.' }),
  'delegation.token.expiry.check.interval.ms': long({ default: HOUR_MS, valid: atLeast(1), doc: 'How often expired delegation tokens are removed.' }),
  'delegation.token.expiry.time.ms': long({ default: DAY_MS, valid: atLeast(1), doc: 'How long a delegation token lives before it must be renewed.' }),
  'delegation.token.max.lifetime.ms': long({ default: 7 * DAY_MS, valid: atLeast(1), doc: 'Longest life of a delegation token, renewals included.' }),

  // Client, replication and controller quotas: accepted and reported (the client quota windows are acted on: broker-configs.ts).
  'client.quota.callback.class': className({ default: null, doc: 'Class that decides client quotas, in place of the built-in rules.' }),
  'replication.quota.window.num': int({ default: 11, valid: atLeast(1), doc: 'Samples kept for replication quota rates.' }),
  'replication.quota.window.size.seconds': int({ default: 1, valid: atLeast(1), doc: 'Length of one replication quota sample, in seconds.' }),
  'alter.log.dirs.replication.quota.window.num': int({ default: 11, valid: atLeast(1), doc: 'Samples kept for the quota on moving replicas between log dirs.' }),
  'alter.log.dirs.replication.quota.window.size.seconds': int({ default: 1, valid: atLeast(1), doc: 'Length of one log-dir move quota sample, in seconds.' }),

  // KRaft: the controller quorum and the metadata log. gregor is one combined node with no quorum to join.
  'controlled.shutdown.enable': bool({ default: true, doc: 'Hand leadership away before this broker shuts down.' }),
  'controller.quorum.append.linger.ms': int({ default: 25, valid: atLeast(0), doc: 'How long the quorum leader gathers records before writing them.' }),
  'controller.quorum.auto.join.enable': bool({ default: false, doc: 'Let a new controller add itself to the quorum.' }),
  'controller.quorum.bootstrap.servers': list({ default: [], valid: hostPorts, doc: 'Controller addresses, host:port, used to find the quorum.' }),
  'controller.quorum.election.backoff.max.ms': int({ default: 1000, valid: atLeast(0), doc: 'Longest wait before starting a new leader election.' }),
  'controller.quorum.election.timeout.ms': int({ default: 1000, valid: atLeast(0), doc: 'How long without a leader before an election starts.' }),
  'controller.quorum.fetch.max.bytes': int({ default: MiB, valid: atLeast(1), doc: 'Most bytes one quorum fetch returns.' }),
  'controller.quorum.fetch.snapshot.max.bytes': int({ default: MiB, valid: atLeast(1), doc: 'Most bytes one quorum snapshot fetch returns.' }),
  'controller.quorum.fetch.timeout.ms': int({ default: 2000, valid: atLeast(0), doc: 'How long without a successful fetch before a voter seeks a new leader.' }),
  'controller.quorum.request.timeout.ms': int({ default: 2000, valid: atLeast(0), doc: 'How long a quorum request waits for its answer.' }),
  'controller.quorum.retry.backoff.ms': int({ default: 20, valid: atLeast(0), doc: 'Wait before retrying a failed quorum request.' }),
  'controller.quorum.voters': list({ default: [], valid: quorumVoters, doc: 'The fixed set of quorum voters, as id@host:port.' }),
  'controller.socket.timeout.ms': int({ default: 30000, doc: 'Socket timeout of connections to the controller.' }),
  'broker.heartbeat.interval.ms': int({ default: 2000, doc: 'How often a broker heartbeats to the controller.' }),
  'broker.session.timeout.ms': int({ default: 9000, doc: 'How long the controller waits for a heartbeat before fencing a broker.' }),
  'initial.broker.registration.timeout.ms': int({ default: 60000, doc: 'How long a starting broker waits to register with the controller.' }),
  'metadata.log.dir': string({ default: null, doc: 'Directory of the metadata log; unset puts it in the first log dir.' }),
  'metadata.log.max.record.bytes.between.snapshots': long({ default: 20 * MiB, valid: atLeast(1), doc: 'Metadata log bytes written before a new snapshot is taken.' }),
  'metadata.log.max.snapshot.interval.ms': long({ default: HOUR_MS, valid: atLeast(0), doc: 'Longest time between metadata snapshots; 0 takes them by size only.' }),
  'metadata.log.segment.bytes': int({ default: 1024 * MiB, valid: atLeast(8 * MiB), doc: 'Segment size of the metadata log.' }),
  'metadata.log.segment.ms': long({ default: 7 * DAY_MS, doc: 'Age at which a new metadata log segment is started.' }),
  'metadata.max.idle.interval.ms': int({ default: 500, valid: atLeast(0), doc: 'How often the active controller writes a no-op record when idle.' }),
  'metadata.max.retention.bytes': long({ default: 100 * MiB, doc: 'Most metadata log bytes kept beyond the latest snapshot.' }),
  'metadata.max.retention.ms': long({ default: 7 * DAY_MS, doc: 'How long metadata log segments are kept beyond the latest snapshot.' }),

  // Replica fetchers, leadership and purgatories: a single gregor node has no followers.
  'replica.fetch.backoff.ms': int({ default: 1000, valid: atLeast(0), doc: 'Wait after a failed fetch from a leader.' }),
  'replica.fetch.max.bytes': int({ default: MiB, valid: atLeast(0), doc: 'Most bytes fetched per partition by a follower.' }),
  'replica.fetch.min.bytes': int({ default: 1, doc: 'Least bytes a follower\'s fetch waits for.' }),
  'replica.fetch.response.max.bytes': int({ default: 10 * MiB, valid: atLeast(0), doc: 'Most bytes in one follower fetch response.' }),
  'replica.fetch.wait.max.ms': int({ default: 500, doc: 'Longest a follower\'s fetch waits at the leader.' }),
  'replica.high.watermark.checkpoint.interval.ms': long({ default: 5000, doc: 'How often high watermarks are saved to disk.' }),
  'replica.selector.class': string({ default: null, doc: 'Class choosing which replica a consumer reads from; unset reads from the leader.' }),
  'replica.socket.receive.buffer.bytes': int({ default: 65536, doc: 'Socket receive buffer of follower fetch connections.' }),
  'replica.socket.timeout.ms': int({ default: 30000, doc: 'Socket timeout of follower fetch connections.' }),
  'num.replica.alter.log.dirs.threads': int({ default: null, doc: 'Threads moving replicas between log dirs; unset uses one per log dir.' }),
  'leader.imbalance.check.interval.seconds': long({ default: 300, valid: atLeast(1), doc: 'How often leadership balance is checked.' }),
  'follower.fetch.last.tiered.offset.enable': bool({ default: false, mode: 'cluster-wide', doc: 'Let a new follower start from the last tiered offset instead of the log start.' }),
  'cordoned.log.dirs': list({ default: [], mode: 'per-broker', doc: 'Log dirs that take no new partitions.' }),
  'fetch.purgatory.purge.interval.requests': int({ default: 1000, doc: 'Delayed fetches added before the fetch purgatory is swept.' }),
  'producer.purgatory.purge.interval.requests': int({ default: 1000, doc: 'Delayed produces added before the produce purgatory is swept.' }),
  'delete.records.purgatory.purge.interval.requests': int({ default: 1, doc: 'Delayed record deletions added before their purgatory is swept.' }),
  'share.fetch.purgatory.purge.interval.requests': int({ default: 1000, doc: 'Delayed share fetches added before their purgatory is swept.' }),
  'max.request.partition.size.limit': int({ default: 2000, valid: atLeast(1), doc: 'Most partitions one request may name.' }),
  'socket.connection.setup.timeout.ms': long({ default: 10000, doc: 'First timeout for opening a connection to another node.' }),
  'socket.connection.setup.timeout.max.ms': long({ default: 30000, doc: 'Longest timeout for opening a connection to another node, after backoff.' }),

  // Transactions: accepted and reported.
  'add.partitions.to.txn.retry.backoff.ms': int({ default: 20, valid: atLeast(1), doc: 'First wait before retrying a partition\'s addition to a transaction.' }),
  'add.partitions.to.txn.retry.backoff.max.ms': int({ default: 100, valid: atLeast(0), doc: 'Longest wait between retries of a partition\'s addition to a transaction.' }),
  'transaction.two.phase.commit.enable': bool({ default: false, doc: 'Let producers take part in two-phase commits driven by an outside coordinator.' }),

  // Group coordinator settings for consumer-protocol groups beyond the ones gregor acts on.
  'group.consumer.assignment.interval.ms': int({ default: 1000, valid: atLeast(0), mode: 'cluster-wide', doc: 'Least time between two target assignments of a consumer-protocol group.' }),
  'group.consumer.max.assignment.interval.ms': int({ default: 15000, valid: atLeast(0), doc: 'Longest assignment interval a consumer-protocol group may use.' }),
  'group.consumer.min.assignment.interval.ms': int({ default: 0, valid: atLeast(0), doc: 'Shortest assignment interval a consumer-protocol group may use.' }),
  'group.coordinator.background.threads': int({ default: 2, valid: atLeast(1), doc: 'Threads for group coordinator background work.' }),
  'group.coordinator.cached.buffer.max.bytes': int({ default: MiB + 12, valid: atLeast(512 * 1024), mode: 'cluster-wide', doc: 'Largest write buffer the group coordinator keeps for reuse.' }),

  // Share groups and the share coordinator (KIP-932): accepted and reported (membership's keys are in broker-configs.ts).
  'group.share.assignors': list({ default: ['simple'], doc: 'Server-side assignors of share groups; the first is the default.' }),
  'group.share.delivery.count.limit': int({ default: 5, valid: between(2, 10), doc: 'Deliveries of one record in a share group before it is given up on.' }),
  'group.share.max.delivery.count.limit': int({ default: 10, valid: between(5, 25), doc: 'Highest delivery count limit a share group may use.' }),
  'group.share.max.partition.max.record.locks': int({ default: 4000, valid: between(2000, 10000), doc: 'Highest per-partition record lock limit a share group may use.' }),
  'group.share.max.record.lock.duration.ms': int({ default: 60000, valid: between(30000, HOUR_MS), doc: 'Longest record lock duration a share group may use.' }),
  'group.share.max.share.sessions': int({ default: 2000, valid: atLeast(1), doc: 'Most share sessions the broker keeps at once.' }),
  'group.share.min.delivery.count.limit': int({ default: 2, valid: between(2, 5), doc: 'Lowest delivery count limit a share group may use.' }),
  'group.share.min.partition.max.record.locks': int({ default: 100, valid: between(100, 2000), doc: 'Lowest per-partition record lock limit a share group may use.' }),
  'group.share.min.record.lock.duration.ms': int({ default: 15000, valid: between(1000, 30000), doc: 'Shortest record lock duration a share group may use.' }),
  'group.share.partition.max.record.locks': int({ default: 2000, valid: between(100, 10000), doc: 'Most records of one partition locked for share consumers at once.' }),
  'group.share.record.lock.duration.ms': int({ default: 30000, valid: between(1000, HOUR_MS), doc: 'How long a record handed to a share consumer stays locked.' }),
  'share.coordinator.append.linger.ms': int({ default: -1, valid: atLeast(-1), doc: 'How long the share coordinator gathers records before writing them; -1 writes at once.' }),
  'share.coordinator.cached.buffer.max.bytes': int({ default: MiB + 12, valid: atLeast(512 * 1024), mode: 'cluster-wide', doc: 'Largest write buffer the share coordinator keeps for reuse.' }),
  'share.coordinator.load.buffer.size': int({ default: 5 * MiB, valid: atLeast(1), doc: 'Batch size for reading __share_group_state at load.' }),
  'share.coordinator.snapshot.update.records.per.snapshot': int({ default: 500, valid: between(0, 500), doc: 'Share state updates written before a new snapshot of it.' }),
  'share.coordinator.state.topic.compression.codec': int({ default: 0, doc: 'Compression codec id for __share_group_state writes (0 = none).' }),
  'share.coordinator.state.topic.min.isr': short({ default: 1, kafkaDefault: 2, valid: atLeast(1), doc: 'min.insync.replicas of __share_group_state; 1 on a single gregor node.' }),
  'share.coordinator.state.topic.num.partitions': int({ default: 50, valid: atLeast(1), doc: 'Partitions of __share_group_state.' }),
  'share.coordinator.state.topic.replication.factor': short({ default: 1, kafkaDefault: 3, valid: atLeast(1), doc: 'Replication factor of __share_group_state; 1 on a single gregor node.' }),
  'share.coordinator.state.topic.segment.bytes': int({ default: 100 * MiB, valid: atLeast(1), doc: 'Segment size of __share_group_state.' }),
  'share.coordinator.threads': int({ default: 1, valid: atLeast(1), doc: 'Threads running the share coordinator.' }),
  'share.coordinator.write.timeout.ms': int({ default: 5000, valid: atLeast(1), doc: 'How long a share state write waits to be durable before failing.' }),

  // Tiered (remote) storage: accepted and reported; gregor keeps every segment locally.
  'remote.fetch.max.wait.ms': int({ default: 500, valid: atLeast(1), mode: 'cluster-wide', doc: 'Longest a fetch waits for data being read from remote storage.' }),
  'remote.list.offsets.request.timeout.ms': long({ default: 30000, valid: atLeast(1), mode: 'cluster-wide', doc: 'How long a ListOffsets lookup in remote storage may take.' }),
  'remote.log.index.file.cache.total.size.bytes': long({ default: 1024 * MiB, valid: atLeast(1), mode: 'cluster-wide', doc: 'Disk space for cached remote index files.' }),
  'remote.log.manager.copier.thread.pool.size': int({ default: 10, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads copying segments to remote storage.' }),
  'remote.log.manager.copy.max.bytes.per.second': long({ default: LONG_MAX_VALUE, valid: atLeast(1), mode: 'cluster-wide', doc: 'Throttle on bytes copied to remote storage per second.' }),
  'remote.log.manager.copy.quota.window.num': int({ default: 11, valid: atLeast(1), doc: 'Samples kept for the remote copy quota.' }),
  'remote.log.manager.copy.quota.window.size.seconds': int({ default: 1, valid: atLeast(1), doc: 'Length of one remote copy quota sample, in seconds.' }),
  'remote.log.manager.expiration.thread.pool.size': int({ default: 10, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads deleting expired remote segments.' }),
  'remote.log.manager.fetch.max.bytes.per.second': long({ default: LONG_MAX_VALUE, valid: atLeast(1), mode: 'cluster-wide', doc: 'Throttle on bytes read from remote storage per second.' }),
  'remote.log.manager.fetch.quota.window.num': int({ default: 11, valid: atLeast(1), doc: 'Samples kept for the remote fetch quota.' }),
  'remote.log.manager.fetch.quota.window.size.seconds': int({ default: 1, valid: atLeast(1), doc: 'Length of one remote fetch quota sample, in seconds.' }),
  'remote.log.manager.follower.thread.pool.size': int({ default: 2, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads followers use to follow remote storage state.' }),
  'remote.log.manager.task.interval.ms': long({ default: 30000, valid: atLeast(1), doc: 'How often remote storage tasks run.' }),
  'remote.log.manager.thread.pool.size': int({ default: 2, valid: atLeast(1), doc: 'Threads for remote storage housekeeping.' }),
  'remote.log.metadata.custom.metadata.max.bytes': int({ default: 128, valid: atLeast(0), doc: 'Largest custom metadata a remote storage plugin may attach to a segment.' }),
  'remote.log.metadata.manager.class.name': string({ default: 'org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager', valid: nonEmptyString, doc: 'Class keeping remote segment metadata.' }),
  'remote.log.metadata.manager.class.path': string({ default: null, doc: 'Class path for the remote metadata manager plugin.' }),
  'remote.log.metadata.manager.impl.prefix': string({ default: 'rlmm.config.', valid: nonEmptyString, doc: 'Prefix of configs passed through to the remote metadata manager.' }),
  'remote.log.metadata.manager.listener.name': string({ default: null, valid: nonEmptyString, doc: 'Listener the remote metadata manager uses to reach the broker.' }),
  'remote.log.reader.max.pending.tasks': int({ default: 100, valid: atLeast(1), doc: 'Most queued reads from remote storage.' }),
  'remote.log.reader.threads': int({ default: 10, valid: atLeast(1), mode: 'cluster-wide', doc: 'Threads reading from remote storage.' }),
  'remote.log.storage.manager.class.name': string({ default: null, valid: nonEmptyString, doc: 'Class storing segments remotely.' }),
  'remote.log.storage.manager.class.path': string({ default: null, doc: 'Class path for the remote storage plugin.' }),
  'remote.log.storage.manager.impl.prefix': string({ default: 'rsm.config.', valid: nonEmptyString, doc: 'Prefix of configs passed through to the remote storage plugin.' }),

  // Metrics and client telemetry: accepted and reported; gregor exposes no JMX.
  'metric.reporters': list({ default: ['org.apache.kafka.common.metrics.JmxReporter'], mode: 'cluster-wide', doc: 'Classes that receive the broker\'s metrics.' }),
  'metrics.num.samples': int({ default: 2, valid: atLeast(1), doc: 'Samples kept per metric.' }),
  'metrics.recording.level': string({ default: 'INFO', doc: 'Most detailed metric level recorded.' }),
  'metrics.sample.window.ms': long({ default: 30000, valid: atLeast(1), doc: 'Length of one metric sample.' }),
  'kafka.metrics.polling.interval.secs': int({ default: 10, valid: atLeast(1), doc: 'How often the older metrics reporters poll, in seconds.' }),
  'kafka.metrics.reporters': list({ default: [], doc: 'Older-style metrics reporter classes.' }),
  'telemetry.max.bytes': int({ default: MiB, valid: atLeast(1), doc: 'Largest client telemetry push accepted.' }),
});
