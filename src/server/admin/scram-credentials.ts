// The broker's SCRAM credentials (security/sasl/scram-credentials.ts), attached at start-up for the
// AlterUserScramCredentials/DescribeUserScramCredentials handlers, as client-quotas.ts attaches the quotas.
import type { ScramCredentials } from '../../security/sasl/scram-credentials.js';
import type { BrokerState } from '../handler.js';

const byBroker = new WeakMap<BrokerState, ScramCredentials>();

export function attachScramCredentials(broker: BrokerState, credentials: ScramCredentials): void {
  byBroker.set(broker, credentials);
}

export function scramCredentials(broker: BrokerState): ScramCredentials {
  const credentials = byBroker.get(broker);
  if (credentials === undefined) throw new Error('no SCRAM credentials are attached to this broker');
  return credentials;
}
