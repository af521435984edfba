// What a broker was configured to do that gregor does not do yet, said once at start-up rather than pretended:
// the keys set that gregor only accepts and reports (broker-configs-reported.ts: TLS, SASL, authorizer, quotas,
// the KRaft quorum...), and group protocols it does not serve. Key names only: never a value (it may be secret).
import { allListenerPrefixedSettings, explicitBrokerSettings, type BrokerConfig } from './broker-config.js';
import { reportedBrokerConfigDefinitions } from './broker-configs-reported.js';

/** The ssl.* keys a TLS listener reads (security/tls/listener-tls.ts); the other ssl.* keys are accepted only. */
const TLS_KEYS_ACTED_ON: ReadonlySet<string> = new Set([
  'ssl.keystore.type', 'ssl.keystore.location', 'ssl.keystore.password', 'ssl.key.password', 'ssl.keystore.certificate.chain',
  'ssl.keystore.key', 'ssl.truststore.type', 'ssl.truststore.location', 'ssl.truststore.password', 'ssl.truststore.certificates',
  'ssl.client.auth', 'ssl.enabled.protocols', 'ssl.protocol', 'ssl.cipher.suites', 'ssl.principal.mapping.rules',
]);

/** The group protocols gregor's coordinator serves when listed (a list without classic is refused, broker-config.ts). */
const SERVED_GROUP_PROTOCOLS: readonly string[] = ['classic', 'consumer'];

export interface NotActedOn {
  readonly message: string;
  readonly keys: readonly string[];
}

export function notActedOn(config: BrokerConfig): NotActedOn[] {
  const notes: NotActedOn[] = [];
  const set = Object.keys(explicitBrokerSettings(config));
  // listener.name.<l>.<key>: read for the TLS keys only so far.
  const prefixed = Object.keys(allListenerPrefixedSettings(config)).filter((key) => !TLS_KEYS_ACTED_ON.has(key.replace(/^listener\.name\.[^.]+\./, '')));
  const acceptedOnly = [...set.filter((key) => Object.hasOwn(reportedBrokerConfigDefinitions, key) && !TLS_KEYS_ACTED_ON.has(key)), ...prefixed].sort();
  if (acceptedOnly.length > 0) {
    notes.push({
      keys: acceptedOnly,
      message: `Config keys accepted but not acted on yet: ${acceptedOnly.join(', ')}`,
    });
  }
  const protocols = config['group.coordinator.rebalance.protocols'];
  const unserved = protocols.filter((protocol) => !SERVED_GROUP_PROTOCOLS.includes(protocol));
  if (unserved.length > 0) {
    notes.push({
      keys: ['group.coordinator.rebalance.protocols'],
      message: `group.coordinator.rebalance.protocols is ${protocols.join(',')}, but gregor serves ` +
        `${SERVED_GROUP_PROTOCOLS.join(', ')} groups only so far (${unserved.join(', ')} not served: their heartbeat APIs are not offered)`,
    });
  }
  return notes;
}
