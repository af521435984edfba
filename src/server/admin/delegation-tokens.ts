// The broker's delegation tokens (security/delegation-tokens.ts), attached at start-up for the handlers of keys
// 38-41, and Kafka's KafkaApis.allowTokenRequests: no token requests over PLAINTEXT, over SSL without a client
// certificate, or from a client that authenticated with a token.
import type { DelegationTokens } from '../../security/delegation-tokens.js';
import { ANONYMOUS } from '../../security/principal.js';
import type { ConnectionInfo } from '../connection.js';
import type { BrokerState } from '../handler.js';

const byBroker = new WeakMap<BrokerState, DelegationTokens>();

export function attachDelegationTokens(broker: BrokerState, tokens: DelegationTokens): void {
  byBroker.set(broker, tokens);
}

export function delegationTokens(broker: BrokerState): DelegationTokens {
  const tokens = byBroker.get(broker);
  if (tokens === undefined) throw new Error('no delegation tokens are attached to this broker');
  return tokens;
}

export function allowTokenRequests(connection: ConnectionInfo): boolean {
  return !(connection.tokenAuthenticated || connection.securityProtocol === 'PLAINTEXT' ||
    (connection.securityProtocol === 'SSL' && connection.principal === ANONYMOUS));
}
