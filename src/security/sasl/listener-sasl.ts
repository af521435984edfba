// A SASL listener's settings, read as Kafka's SaslChannelBuilder reads them: the listener's own key
// (listener.name.<listener>.<key>) over the broker's. Checked at start-up: a mechanism gregor cannot serve, or PLAIN
// without users, stops the broker with one line, as Kafka's start-up fails on a missing JAAS entry.
import { listenerSetting, type BrokerConfig } from '../../config/index.js';
import type { SaslListenerSettings } from './authenticator.js';
import { parseJaasConfig, plainUsersOf } from './jaas.js';
import { plainServer } from './plain-server.js';
import type { SaslServer } from './sasl-server.js';
import type { ScramCredentialLookup, TokenCredentialLookup } from './scram-server.js';
import { scramServer } from './scram-server.js';
import { scramMechanismByName } from './scram-formatter.js';
import { oauthBearerServer } from './oauthbearer/oauthbearer-server.js';
import { oauthBearerValidatorOf } from './oauthbearer/listener-oauthbearer.js';

export const SERVED_MECHANISMS: readonly string[] = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER'];

export function saslListenerSettings(
  config: BrokerConfig,
  listenerName: string,
  scram: ScramCredentialLookup,
  tokens: TokenCredentialLookup,
  apiName: (apiKey: number) => string | undefined,
  onWarning: (line: string) => void,
  onDebug: (line: string) => void = () => {},
): SaslListenerSettings {
  const prefix = `listener.name.${listenerName.toLowerCase()}.`;
  const own = listenerSetting(config, listenerName, 'sasl.enabled.mechanisms');
  const mechanisms = own !== undefined ? own.split(',').map((m) => m.trim()).filter((m) => m !== '') : [...config['sasl.enabled.mechanisms']];
  const key = own !== undefined ? `${prefix}sasl.enabled.mechanisms` : 'sasl.enabled.mechanisms';
  if (mechanisms.length === 0) throw new Error(`${key}: listener ${listenerName} is SASL but enables no mechanism; set ${key}=SCRAM-SHA-512 (or PLAIN, SCRAM-SHA-256, OAUTHBEARER)`);
  for (const mechanism of mechanisms) {
    if (!SERVED_MECHANISMS.includes(mechanism)) {
      throw new Error(`${key}: ${mechanism} is not served by gregor on listener ${listenerName} (${SERVED_MECHANISMS.join(', ')} are)`);
    }
  }
  if (config['sasl.jaas.config'] !== null) {
    onWarning('Server config sasl.jaas.config should be prefixed with SASL mechanism name, ignoring config');
  }
  let plainUsers: Map<string, string> | undefined;
  if (mechanisms.includes('PLAIN')) {
    const jaasKey = `${prefix}plain.sasl.jaas.config`;
    const jaas = listenerSetting(config, listenerName, 'plain.sasl.jaas.config');
    if (jaas === undefined) {
      throw new Error(`${jaasKey} is not set: PLAIN on listener ${listenerName} takes its users from it ` +
        `(org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret";)`);
    }
    try {
      plainUsers = plainUsersOf(parseJaasConfig(jaas));
    } catch (err) {
      throw new Error(`${jaasKey}: ${(err as Error).message}`);
    }
  }
  const oauthBearer = mechanisms.includes('OAUTHBEARER') ? oauthBearerValidatorOf(config, listenerName) : undefined;
  const lifetime = (mechanism: string): number => {
    const raw = listenerSetting(config, listenerName, `${mechanism.toLowerCase()}.connections.max.reauth.ms`) ??
      listenerSetting(config, listenerName, 'connections.max.reauth.ms');
    if (raw === undefined) return config['connections.max.reauth.ms'];
    const value = Number(raw.trim());
    if (!Number.isSafeInteger(value)) throw new Error(`${prefix}connections.max.reauth.ms: expects a whole number of milliseconds, got ${JSON.stringify(raw)}`);
    return value;
  };
  for (const mechanism of mechanisms) lifetime(mechanism);
  return {
    mechanisms,
    newServer(mechanism): SaslServer {
      if (mechanism === 'PLAIN') return plainServer(plainUsers!);
      if (mechanism === 'OAUTHBEARER') return oauthBearerServer(oauthBearer!, (reason) => onDebug(`OAUTHBEARER token refused: ${reason}`));
      return scramServer(scramMechanismByName(mechanism)!, scram, tokens);
    },
    sessionLifetimeMs: lifetime,
    apiName,
  };
}
