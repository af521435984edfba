// What a broker was configured to do that gregor does not do yet, said once at start-up rather than pretended:
// the keys set that gregor only accepts and reports (broker-configs-reported.ts: TLS, SASL, authorizer, quotas,
// the KRaft quorum...). Key names only: never a value (it may be secret). (Every group protocol Kafka lists is served.)
import { allListenerPrefixedSettings, explicitBrokerSettings, type BrokerConfig } from './broker-config.js';
import { reportedBrokerConfigDefinitions } from './broker-configs-reported.js';

/** The ssl.* keys a TLS listener reads (security/tls/listener-tls.ts); the other ssl.* keys are accepted only. */
const TLS_KEYS_ACTED_ON: ReadonlySet<string> = new Set([
  'ssl.keystore.type', 'ssl.keystore.location', 'ssl.keystore.password', 'ssl.key.password', 'ssl.keystore.certificate.chain',
  'ssl.keystore.key', 'ssl.truststore.type', 'ssl.truststore.location', 'ssl.truststore.password', 'ssl.truststore.certificates',
  'ssl.client.auth', 'ssl.enabled.protocols', 'ssl.protocol', 'ssl.cipher.suites', 'ssl.principal.mapping.rules',
]);

/** The OAUTHBEARER keys a SASL listener reads (security/sasl/oauthbearer/) and the delegation token ones. */
const SASL_KEYS_ACTED_ON: ReadonlySet<string> = new Set([
  'sasl.oauthbearer.jwks.endpoint.url', 'sasl.oauthbearer.jwks.endpoint.refresh.ms', 'sasl.oauthbearer.expected.audience',
  'sasl.oauthbearer.expected.issuer', 'sasl.oauthbearer.clock.skew.seconds', 'sasl.oauthbearer.sub.claim.name',
  'sasl.oauthbearer.scope.claim.name', 'oauthbearer.sasl.jaas.config', 'oauthbearer.sasl.server.callback.handler.class',
  'delegation.token.secret.key', 'delegation.token.max.lifetime.ms', 'delegation.token.expiry.time.ms', 'delegation.token.expiry.check.interval.ms',
]);
const actedOn = (key: string): boolean => TLS_KEYS_ACTED_ON.has(key) || SASL_KEYS_ACTED_ON.has(key);
/** What a broker in cluster mode (gregor.cluster.etcd.endpoints set) reads: its etcd session's lease, its followers' fetches. */
const CLUSTER_KEYS_ACTED_ON: ReadonlySet<string> = new Set([
  'broker.session.timeout.ms', 'replica.fetch.backoff.ms', 'replica.fetch.max.bytes', 'replica.fetch.min.bytes',
  'replica.fetch.response.max.bytes', 'replica.fetch.wait.max.ms', 'replica.socket.timeout.ms', 'replica.high.watermark.checkpoint.interval.ms',
  'leader.imbalance.check.interval.seconds',
]);

export interface NotActedOn {
  readonly message: string;
  readonly keys: readonly string[];
}

export function notActedOn(config: BrokerConfig): NotActedOn[] {
  const notes: NotActedOn[] = [];
  const set = Object.keys(explicitBrokerSettings(config));
  // listener.name.<l>.<key>: read for the TLS keys only so far.
  const prefixed = Object.keys(allListenerPrefixedSettings(config)).filter((key) => !actedOn(key.replace(/^listener\.name\.[^.]+\./, '')));
  const clustered = config['gregor.cluster.etcd.endpoints'] !== null;
  const acceptedOnly = [...set.filter((key) => Object.hasOwn(reportedBrokerConfigDefinitions, key) && !actedOn(key) &&
    !(clustered && CLUSTER_KEYS_ACTED_ON.has(key))), ...prefixed].sort();
  if (acceptedOnly.length > 0) {
    notes.push({
      keys: acceptedOnly,
      message: `Config keys accepted but not acted on yet: ${acceptedOnly.join(', ')}`,
    });
  }
  return notes;
}
