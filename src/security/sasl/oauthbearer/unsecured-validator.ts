// Kafka's default OAUTHBEARER validation (OAuthBearerUnsecuredValidatorCallbackHandler with OAuthBearerUnsecuredJws):
// an unsigned JWT ("alg":"none", empty signature) whose claims are checked, not its origin. Options come from the
// listener's OAUTHBEARER JAAS entry: unsecuredValidatorPrincipalClaimName (sub), unsecuredValidatorScopeClaimName
// (scope), unsecuredValidatorRequiredScope (space-separated), unsecuredValidatorAllowableClockSkewMs (0).
// As in Kafka, the parts are decoded with the standard Base64 alphabet (Java's Base64.getDecoder()), not base64url.
import { OAuthBearerValidationFailure, type OAuthBearerToken, type OAuthBearerValidator } from './token.js';

export interface UnsecuredValidatorOptions {
  readonly principalClaimName: string;
  readonly scopeClaimName: string;
  readonly requiredScope: readonly string[];
  readonly allowableClockSkewMs: number;
}

const SCOPE_ITEM = /^[\x23-\x5B\x5D-\x7E\x21]+$/;

/** The options as Kafka reads them from the JAAS entry; throws Kafka's one-line reason for a bad one. */
export function unsecuredValidatorOptions(options: ReadonlyMap<string, string>): UnsecuredValidatorOptions {
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';
  const principal = options.get('unsecuredValidatorPrincipalClaimName');
  const scope = options.get('unsecuredValidatorScopeClaimName');
  const required = options.get('unsecuredValidatorRequiredScope');
  const skew = options.get('unsecuredValidatorAllowableClockSkewMs');
  const requiredScope = blank(required) ? [] : required!.trim().split(' ').filter((item) => item !== '');
  for (const item of requiredScope) if (!SCOPE_ITEM.test(item)) throw new Error(`Invalid scope value: ${item}`);
  let allowableClockSkewMs = 0;
  if (!blank(skew)) {
    allowableClockSkewMs = Number(skew!.trim());
    if (!/^[-+]?\d+$/.test(skew!.trim()) || allowableClockSkewMs > 2 ** 31 - 1 || allowableClockSkewMs < -(2 ** 31)) {
      throw new Error(`For input string: "${skew!.trim()}"`);
    }
    if (allowableClockSkewMs < 0) throw new Error(`Allowable clock skew millis must not be negative: ${skew}`);
  }
  return {
    principalClaimName: blank(principal) ? 'sub' : principal!.trim(),
    scopeClaimName: blank(scope) ? 'scope' : scope!.trim(),
    requiredScope,
    allowableClockSkewMs,
  };
}

type Claim = string | number | string[];

/** One part decoded as Kafka's OAuthBearerUnsecuredJws.toMap does: arrays become their elements' text. */
function toMap(part: string): Map<string, Claim> {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(part)) throw new OAuthBearerValidationFailure('malformed Base64 URL encoded value');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(part, 'base64').toString('utf8'));
  } catch {
    throw new OAuthBearerValidationFailure('malformed JSON');
  }
  const map = new Map<string, Claim>();
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return map;
  const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
  for (const [key, value] of Object.entries(parsed)) {
    map.set(key, Array.isArray(value) ? value.map(text) : typeof value === 'number' ? value : text(value));
  }
  return map;
}

export function unsecuredValidator(options: UnsecuredValidatorOptions, now: () => number = Date.now): OAuthBearerValidator {
  return (value): OAuthBearerToken => {
    if (value.includes('..')) throw new OAuthBearerValidationFailure("Malformed compact serialization contains '..'");
    const parts = value.split('.');
    if (parts.length !== 3) throw new OAuthBearerValidationFailure('Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded values');
    const header = toMap(parts[0]!);
    const claims = toMap(parts[1]!);
    if (header.get('alg') !== 'none') throw new OAuthBearerValidationFailure("Unsecured JWS must have 'none' for an algorithm");
    if (parts[2] !== '') throw new OAuthBearerValidationFailure('Unsecured JWS must not contain a digital signature');
    const number = (name: string): number | undefined => {
      const claim = claims.get(name);
      if (claim !== undefined && typeof claim !== 'number') throw new OAuthBearerValidationFailure(`The '${name}' claim was not of type Number`);
      return claim;
    };
    const scopeClaim = claims.get(options.scopeClaimName);
    if (typeof scopeClaim === 'number') throw new OAuthBearerValidationFailure(`The '${options.scopeClaimName}' claim was not of type List`);
    const scope = new Set(typeof scopeClaim === 'string' ? (scopeClaim.trim() === '' ? [] : [scopeClaim.trim()])
      : (scopeClaim ?? []).filter((s) => s.trim() !== '').map((s) => s.trim()));
    const exp = number('exp');
    if (exp === undefined) throw new OAuthBearerValidationFailure('No expiration time in JWT');
    const principal = claims.get(options.principalClaimName);
    if (principal !== undefined && typeof principal !== 'string') {
      throw new OAuthBearerValidationFailure(`The ${options.principalClaimName} claim had the incorrect type`);
    }
    if (principal === undefined || principal.trim() === '') throw new OAuthBearerValidationFailure(`No principal name in JWT claim: ${options.principalClaimName}`);
    const iat = number('iat');
    const at = now();
    const skew = options.allowableClockSkewMs;
    if (iat !== undefined && 1000 * iat > at + skew) throw new OAuthBearerValidationFailure(`The Issued At value (${iat} seconds) was after the indicated time (${at} ms) plus allowable clock skew (${skew} ms)`);
    if (at - skew >= 1000 * exp) throw new OAuthBearerValidationFailure(`The indicated time (${at} ms) minus allowable clock skew (${skew} ms) was on or after the Expiration Time value (${exp} seconds)`);
    if (iat !== undefined && exp <= iat) throw new OAuthBearerValidationFailure(`The Expiration Time time (${exp} seconds) was not after the Issued At time (${iat} seconds)`);
    for (const item of options.requiredScope) {
      if (!scope.has(item)) {
        // Kafka's List.toString: "[a, b]".
        throw new OAuthBearerValidationFailure(`The provided scope was missing a required scope (${item})`, 'insufficient_scope', `[${options.requiredScope.join(', ')}]`);
      }
    }
    return { principalName: principal, lifetimeMs: Math.round(exp * 1000) };
  };
}
