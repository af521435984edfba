// Kafka's OAuthBearerValidatorCallbackHandler (BrokerJwtValidator over jose4j): a signed JWT checked against the keys of
// sasl.oauthbearer.jwks.endpoint.url, a file: URL (read again when the file changes, as Kafka's CachedFile) or an
// http(s) one (fetched on first use and again every sasl.oauthbearer.jwks.endpoint.refresh.ms; a key id it does not
// hold makes jose fetch at once, at most every 30 s, where Kafka refuses that token and fetches in the background). Signatures and JWKS handling are the `jose` library's (no hand-written crypto); the claim rules are
// Kafka's: exp and iat required, nbf honoured, sasl.oauthbearer.clock.skew.seconds of leeway, the expected issuer,
// the expected audiences (jose4j's default audience check: a token naming an audience is refused when none is
// expected), the principal from sasl.oauthbearer.sub.claim.name (a non-blank string).
import { statSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OAuthBearerValidationFailure, type OAuthBearerToken, type OAuthBearerValidator } from './token.js';

export interface JwksValidatorSettings {
  readonly jwksUrl: URL;
  readonly refreshMs: number;
  readonly expectedAudience: readonly string[];
  readonly expectedIssuer: string | null;
  readonly clockSkewSeconds: number;
  readonly subClaimName: string;
  readonly scopeClaimName: string;
}

type Jose = typeof import('jose');
type KeySet = Parameters<Jose['jwtVerify']>[1];

/** Kafka's ConfigurationUtils.validateUrl: http, https or an existing file; throws its one-line message. */
export function jwksEndpointUrl(key: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch (err) {
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) throw new Error(`The OAuth configuration option ${key} contains a URL (${value}) that is missing the protocol`);
    throw new Error(`The OAuth configuration option ${key} contains a URL (${value}) that is malformed: ${(err as Error).message}`);
  }
  const protocol = url.protocol.slice(0, -1).toLowerCase();
  if (!['http', 'https', 'file'].includes(protocol)) {
    throw new Error(`The OAuth configuration option ${key} contains a URL (${value}) that contains an invalid protocol (${protocol}); only "http", "https", and "file" protocol are supported`);
  }
  if (protocol === 'file') {
    const path = fileURLToPath(url);
    let isFile = false;
    try {
      isFile = statSync(path).isFile();
    } catch {
      // missing: refused below
    }
    if (!isFile) throw new Error(`The OAuth configuration option ${key} contains a file (${path}) that doesn't exist`);
  }
  return url;
}

export function jwksValidator(settings: JwksValidatorSettings): OAuthBearerValidator {
  let jose: Jose | undefined;
  let remote: KeySet | undefined;
  let local: { mtimeMs: number; size: number; keys: KeySet } | undefined;

  const keySet = async (): Promise<KeySet> => {
    jose ??= await import('jose');
    if (settings.jwksUrl.protocol !== 'file:') {
      remote ??= jose.createRemoteJWKSet(settings.jwksUrl, { cacheMaxAge: settings.refreshMs });
      return remote;
    }
    const path = fileURLToPath(settings.jwksUrl);
    const stat = statSync(path);
    if (local === undefined || local.mtimeMs !== stat.mtimeMs || local.size !== stat.size) {
      local = { mtimeMs: stat.mtimeMs, size: stat.size, keys: jose.createLocalJWKSet(JSON.parse(readFileSync(path, 'utf8'))) };
    }
    return local.keys;
  };

  return async (value): Promise<OAuthBearerToken> => {
    let payload: Record<string, unknown>;
    try {
      const keys = await keySet();
      ({ payload } = await jose!.jwtVerify(value, keys, {
        clockTolerance: settings.clockSkewSeconds,
        requiredClaims: ['exp', 'iat'],
        ...(settings.expectedIssuer === null ? {} : { issuer: settings.expectedIssuer }),
        ...(settings.expectedAudience.length === 0 ? {} : { audience: [...settings.expectedAudience] }),
      }));
    } catch (err) {
      throw new OAuthBearerValidationFailure(`Could not validate the access token: ${(err as Error).message}`);
    }
    if (settings.expectedAudience.length === 0 && payload['aud'] !== undefined) {
      throw new OAuthBearerValidationFailure('Could not validate the access token: Audience (aud) claim present in the JWT but no expected audience value(s) were provided to the JWT Consumer.');
    }
    // ClaimValidationUtils.validateScopes: each scope a non-blank string, none twice.
    const scopeClaim = payload[settings.scopeClaimName];
    const scopes = typeof scopeClaim === 'string' ? [scopeClaim] : Array.isArray(scopeClaim) ? scopeClaim : [];
    const seen = new Set<string>();
    for (const scope of scopes) {
      if (typeof scope !== 'string') throw new OAuthBearerValidationFailure(`${settings.scopeClaimName} value must be non-null`);
      if (scope.trim() === '') throw new OAuthBearerValidationFailure(`${settings.scopeClaimName} value must not contain only whitespace`);
      if (seen.has(scope.trim())) throw new OAuthBearerValidationFailure(`${settings.scopeClaimName} value must not contain duplicates - ${scope.trim()} already present`);
      seen.add(scope.trim());
    }
    const sub = payload[settings.subClaimName];
    if (sub !== undefined && typeof sub !== 'string') throw new OAuthBearerValidationFailure(`Could not extract the '${settings.subClaimName}' claim from the access token`);
    if (sub === undefined) throw new OAuthBearerValidationFailure(`${settings.subClaimName} value must be non-null`);
    if (sub.trim() === '') throw new OAuthBearerValidationFailure(`${settings.subClaimName} value must not contain only whitespace`);
    return { principalName: sub.trim(), lifetimeMs: (payload['exp'] as number) * 1000 };
  };
}
