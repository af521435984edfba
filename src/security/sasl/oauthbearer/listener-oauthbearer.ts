// A listener's OAUTHBEARER validation, chosen as Kafka chooses it: its listener.name.<l>.oauthbearer.sasl.jaas.config
// (an OAuthBearerLoginModule entry, whose options the unsecured validator reads) is required; its
// listener.name.<l>.oauthbearer.sasl.server.callback.handler.class picks the validator: unset, Kafka's default
// unsecured-JWT one; OAuthBearerValidatorCallbackHandler, JWKS validation with the sasl.oauthbearer.* keys (each
// listener.name.<l>. key over the broker's). Anything else stops start-up with one line.
import { listenerSetting, type BrokerConfig } from '../../../config/index.js';
import { parseJaasConfig } from '../jaas.js';
import { jwksEndpointUrl, jwksValidator } from './jwks-validator.js';
import type { OAuthBearerValidator } from './token.js';
import { unsecuredValidator, unsecuredValidatorOptions } from './unsecured-validator.js';

const UNSECURED_HANDLER = 'org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredValidatorCallbackHandler';
const JWKS_HANDLER = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler';
export const OAUTHBEARER_LOGIN_MODULE = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule';

export function oauthBearerValidatorOf(config: BrokerConfig, listenerName: string): OAuthBearerValidator {
  const prefix = `listener.name.${listenerName.toLowerCase()}.`;
  const jaasKey = `${prefix}oauthbearer.sasl.jaas.config`;
  const jaas = listenerSetting(config, listenerName, 'oauthbearer.sasl.jaas.config');
  if (jaas === undefined) {
    throw new Error(`${jaasKey} is not set: OAUTHBEARER on listener ${listenerName} needs it (${OAUTHBEARER_LOGIN_MODULE} required;)`);
  }
  let modules;
  try {
    modules = parseJaasConfig(jaas);
  } catch (err) {
    throw new Error(`${jaasKey}: ${(err as Error).message}`);
  }
  const handlerKey = `${prefix}oauthbearer.sasl.server.callback.handler.class`;
  const handler = listenerSetting(config, listenerName, 'oauthbearer.sasl.server.callback.handler.class')?.trim() ?? UNSECURED_HANDLER;
  if (handler === UNSECURED_HANDLER) {
    if (modules.length !== 1) throw new Error(`${jaasKey}: Must supply exactly 1 non-null JAAS mechanism configuration (size was ${modules.length})`);
    // Kafka's broker logs itself in with an unsecured token made from the entry (OAuthBearerUnsecuredLoginCallbackHandler):
    // without its principal claim, start-up fails.
    const options = modules[0]!.options;
    const loginClaim = options.get('unsecuredLoginPrincipalClaimName')?.trim() || 'sub';
    if ((options.get(`unsecuredLoginStringClaim_${loginClaim}`) ?? '').trim() === '') {
      throw new Error(`${jaasKey}: No principal name in JWT claim: ${loginClaim} (set unsecuredLoginStringClaim_${loginClaim}="admin" in it, as Kafka's broker logs in with it)`);
    }
    try {
      return unsecuredValidator(unsecuredValidatorOptions(options));
    } catch (err) {
      throw new Error(`${jaasKey}: ${(err as Error).message}`);
    }
  }
  if (handler !== JWKS_HANDLER) throw new Error(`${handlerKey}: ${handler} is not served by gregor (${JWKS_HANDLER} and the default unsecured validator are)`);
  const setting = <K extends keyof BrokerConfig>(key: K): string | BrokerConfig[K] => listenerSetting(config, listenerName, key) ?? config[key];
  const urlKey = 'sasl.oauthbearer.jwks.endpoint.url';
  const url = setting(urlKey);
  if (url === null || url.trim() === '') {
    throw new Error(`The OAuth validator for the broker requires "${urlKey}" to be configured so that JWT signatures can be verified, but it was not set. ` +
      `Set "${urlKey}" to the OAuth/OIDC provider's JWKS endpoint URL for this listener, or configure a signature-verifying "sasl.oauthbearer.jwt.validator.class".`);
  }
  const text = (v: string | null): string | null => (v === null || v.trim() === '' ? null : v.trim());
  const list = (v: string | readonly string[]): string[] => (typeof v === 'string' ? v.split(',') : [...v]).map((a) => a.trim()).filter((a) => a !== '');
  const whole = (key: 'sasl.oauthbearer.clock.skew.seconds' | 'sasl.oauthbearer.jwks.endpoint.refresh.ms'): number => {
    const value = Number(setting(key));
    if (!Number.isSafeInteger(value)) throw new Error(`${prefix}${key}: expects a whole number, got ${JSON.stringify(setting(key))}`);
    return value;
  };
  return jwksValidator({
    jwksUrl: jwksEndpointUrl(urlKey, url.trim()),
    refreshMs: whole('sasl.oauthbearer.jwks.endpoint.refresh.ms'),
    expectedAudience: list(setting('sasl.oauthbearer.expected.audience')),
    expectedIssuer: text(setting('sasl.oauthbearer.expected.issuer')),
    clockSkewSeconds: whole('sasl.oauthbearer.clock.skew.seconds'),
    subClaimName: text(setting('sasl.oauthbearer.sub.claim.name')) ?? 'sub',
    scopeClaimName: text(setting('sasl.oauthbearer.scope.claim.name')) ?? 'scope',
  });
}
