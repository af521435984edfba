// OAUTHBEARER's server side (RFC 7628) as Kafka's OAuthBearerSaslServer: the client's initial response
// "n,[a=<authzid>],^Aauth=Bearer <token>^A[key=value^A]*^A" goes to the listener's validator. A refused token is
// answered with the RFC 7628 error JSON as a challenge ({"status":"invalid_token"}); the client's ^A that
// acknowledges it then fails the exchange with that JSON as the message the client sees. The reason a token was
// refused (expired, wrong audience...) is never sent, as in Kafka. Extensions are accepted as Kafka's validators do.
import { SaslAuthenticationFailure, SaslFailure, type SaslServer } from '../sasl-server.js';
import { OAuthBearerValidationFailure, type OAuthBearerValidator } from './token.js';

const SEP = '\u0001';
const SASLNAME = '(?:[\\x01-\\x2B\\x2D-\\x3C\\x3E-\\x7F]|=2C|=3D)+';
const KEY = '[A-Za-z]+';
const VALUE = '[\\x21-\\x7E \\t\\r\\n]+';
const CLIENT_INITIAL_RESPONSE = new RegExp(`^n,(?:a=(${SASLNAME}))?,${SEP}((?:${KEY}=${VALUE}${SEP})*)${SEP}$`);
const AUTH = /^(\w+) +([-_~+/.a-zA-Z0-9]+=*)$/;

export function oauthBearerServer(validate: OAuthBearerValidator, onRefused: (reason: string) => void): SaslServer {
  let complete = false;
  let principal: string | null = null;
  let expiresAt: number | null = null;
  let errorMessage: string | null = null;

  const accept = (authzid: string, token: { principalName: string; lifetimeMs: number }): Buffer => {
    if (authzid !== '' && authzid !== token.principalName) {
      throw new SaslAuthenticationFailure(`Authentication failed: Client requested an authorization id (${authzid}) that is different from the token's principal name (${token.principalName})`);
    }
    principal = token.principalName;
    expiresAt = token.lifetimeMs;
    complete = true;
    return Buffer.alloc(0);
  };
  const refuse = (err: unknown): Buffer => {
    if (!(err instanceof OAuthBearerValidationFailure)) throw err;
    onRefused(err.message);
    errorMessage = `{"status":"${err.status}"${err.scope === null ? '' : `, "scope":"${err.scope}"`}}`;
    return Buffer.from(errorMessage, 'utf8');
  };

  return {
    mechanism: 'OAUTHBEARER',
    get complete() {
      return complete;
    },
    get authorizationId() {
      return complete ? principal : null;
    },
    get credentialExpiresAtMs() {
      return complete ? expiresAt : null;
    },
    evaluate(response) {
      if (response.length === 1 && response[0] === 1 && errorMessage !== null) throw new SaslAuthenticationFailure(errorMessage);
      errorMessage = null;
      const match = CLIENT_INITIAL_RESPONSE.exec(response.toString('utf8'));
      if (match === null) throw new SaslFailure('Invalid OAUTHBEARER client first message');
      const authzid = match[1] ?? '';
      const pairs = new Map<string, string>();
      for (const pair of match[2]!.split(SEP).filter((p) => p !== '')) {
        const at = pair.indexOf('=');
        pairs.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const auth = pairs.get('auth');
      if (auth === undefined) throw new SaslFailure("Invalid OAUTHBEARER client first message: 'auth' not specified");
      const parsed = AUTH.exec(auth);
      if (parsed === null) throw new SaslFailure("Invalid OAUTHBEARER client first message: invalid 'auth' format");
      if (parsed[1]!.toLowerCase() !== 'bearer') throw new SaslFailure('Invalid scheme in OAUTHBEARER client first message');
      let result: ReturnType<OAuthBearerValidator>;
      try {
        result = validate(parsed[2]!);
      } catch (err) {
        return refuse(err);
      }
      if (result instanceof Promise) return result.then((token) => accept(authzid, token), refuse);
      return accept(authzid, result);
    },
  };
}
