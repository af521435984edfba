// OAUTHBEARER scenarios for the raw SASL probe, run against gregor by the tests and against Kafka 4.3.1's reference
// broker configured the same way (their observations are what the tests assert). Two listeners: one with Kafka's
// default unsecured-JWT validation (unsecuredValidatorRequiredScope="kafka"), one with JWKS validation
// (OAuthBearerValidatorCallbackHandler, a file: JWKS, expected audience kafka-aud, expected issuer https://issuer.test).
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { runEach, type Observation, type SaslProbe } from './sasl-probe.js';

export const UNSECURED_JAAS = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="admin" unsecuredValidatorRequiredScope="kafka";';
export const JWKS_HANDLER = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler';
export const EXPECTED_AUDIENCE = 'kafka-aud';
export const EXPECTED_ISSUER = 'https://issuer.test';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const unsecuredToken = (claims: object) => `${b64({ alg: 'none' })}.${b64(claims)}.`;
const clientResponse = (token: string, authzid = '') => Buffer.from(`n,${authzid === '' ? '' : `a=${authzid}`},\u0001auth=Bearer ${token}\u0001\u0001`);

/** An RSA key pair: the JWKS (public key, kid k1) to write to a file, and a signer of tokens. */
export async function signingKey(): Promise<{ jwks: string; sign: (claims: Record<string, unknown>) => Promise<string> }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  return {
    jwks: JSON.stringify({ keys: [jwk] }),
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(privateKey),
  };
}

/** A session lifetime that is the token's remaining life (it varies by the millisecond) is shown as <token>. */
function steady(observations: Observation[]): Observation[] {
  return observations.map((o) => o.replace(/lifetime (\d+)$/, (all, ms: string) => (Number(ms) > 3_500_000 && Number(ms) <= 3_600_000 ? 'lifetime <token>' : all)));
}

async function exchange(p: SaslProbe, token: string, authzid = ''): Promise<Observation[]> {
  const seen = [await p.handshake('OAUTHBEARER')];
  seen.push(await p.authenticate(clientResponse(token, authzid)));
  if (p.lastAuthBytes.length > 0) {
    seen.push(`challenge ${p.lastAuthBytes.toString()}`);
    seen.push(await p.authenticate(Buffer.from([1])));
  }
  seen.push(await p.metadata());
  return steady(seen);
}

export function runUnsecuredScenarios(port: number, sign: (claims: Record<string, unknown>) => Promise<string>): Promise<Record<string, Observation[]>> {
  const now = Math.floor(Date.now() / 1000);
  return runEach(port, {
    'a valid token': (p) => exchange(p, unsecuredToken({ sub: 'alice', iat: now, exp: now + 3600, scope: 'kafka' })),
    'a token with the scope in a list': (p) => exchange(p, unsecuredToken({ sub: 'alice', iat: now, exp: now + 3600, scope: ['other', 'kafka'] })),
    'an expired token': (p) => exchange(p, unsecuredToken({ sub: 'alice', iat: now - 7200, exp: now - 3600, scope: 'kafka' })),
    'a token without the required scope': (p) => exchange(p, unsecuredToken({ sub: 'alice', iat: now, exp: now + 3600, scope: 'other' })),
    'a token without sub': (p) => exchange(p, unsecuredToken({ iat: now, exp: now + 3600, scope: 'kafka' })),
    'a token without exp': (p) => exchange(p, unsecuredToken({ sub: 'alice', iat: now, scope: 'kafka' })),
    'a signed token': async (p) => exchange(p, await sign({ sub: 'alice', iat: now, exp: now + 3600, scope: 'kafka' })),
    'another authorization id': (p) => exchange(p, unsecuredToken({ sub: 'alice', iat: now, exp: now + 3600, scope: 'kafka' }), 'bob'),
    'a malformed client response': async (p) => [await p.handshake('OAUTHBEARER'), await p.authenticate(Buffer.from('n,,auth=Bearer x'))],
  });
}

export function runJwksScenarios(port: number, sign: (claims: Record<string, unknown>) => Promise<string>): Promise<Record<string, Observation[]>> {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: 'bob', iat: now, exp: now + 3600, aud: EXPECTED_AUDIENCE, iss: EXPECTED_ISSUER };
  return runEach(port, {
    'a valid signed token': async (p) => exchange(p, await sign(claims)),
    'a wrong audience': async (p) => exchange(p, await sign({ ...claims, aud: 'other' })),
    'a wrong issuer': async (p) => exchange(p, await sign({ ...claims, iss: 'https://other.test' })),
    'an expired token': async (p) => exchange(p, await sign({ ...claims, iat: now - 7200, exp: now - 3600 })),
    'expired within the clock skew': async (p) => exchange(p, await sign({ ...claims, iat: now - 7200, exp: now - 5 })),
    'a token without iat': async (p) => exchange(p, await sign({ sub: 'bob', exp: now + 3600, aud: EXPECTED_AUDIENCE, iss: EXPECTED_ISSUER })),
    'an unsecured token': (p) => exchange(p, unsecuredToken(claims)),
    'a token signed by another key': async (p) => exchange(p, await (await signingKey()).sign(claims)),
  });
}
