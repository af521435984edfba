// SCRAM-SHA-256/512 server exchange (RFC 5802) with Kafka's ScramSaslServer's states, message grammar and failures.
// Extensions: tokenauth=true asks for a delegation token's credential (user name: the token id); the session then
// belongs to the token's owner and ends when the token expires. Other extensions are ignored, as Kafka ignores them.
import { randomBytes } from 'node:crypto';
import { SaslAuthenticationFailure, SaslFailure, type SaslServer } from './sasl-server.js';
import type { TokenCredential } from '../delegation-tokens.js';
import { hmac, usernameOf, verifyClientProof, type ScramCredential, type ScramMechanism } from './scram-formatter.js';

const SASLNAME = '(?:[\\x01-\\x2B\\x2D-\\x3C\\x3E-\\x7F]|=2C|=3D)+';
const PRINTABLE = '[\\x21-\\x2B\\x2D-\\x7E]+';
const BASE64 = '[A-Za-z0-9+/]*={0,2}';
const VALUE = '[\\x01-\\x2B\\x2D-\\x7F]+';
const EXTENSIONS = `(?:,[a-zA-Z]+=${VALUE})*`;
const CLIENT_FIRST = new RegExp(`^n,(?:a=(${SASLNAME}))?,(?:m=${VALUE},)?n=(${SASLNAME}),r=(${PRINTABLE})(${EXTENSIONS})$`);
const CLIENT_FINAL = new RegExp(`^(c=${BASE64},r=(${PRINTABLE})${EXTENSIONS}),p=(${BASE64})$`);

/** Looks a user's credential up for a mechanism (undefined: no such credential). */
export type ScramCredentialLookup = (user: string, mechanism: ScramMechanism) => ScramCredential | undefined;
/** Looks a delegation token's credential up by token id (undefined: no such token). */
export type TokenCredentialLookup = (tokenId: string, mechanism: ScramMechanism) => TokenCredential | undefined;

export function scramServer(mechanism: ScramMechanism, lookup: ScramCredentialLookup, tokenLookup: TokenCredentialLookup = () => undefined): SaslServer {
  let state: 'first' | 'final' | 'complete' | 'failed' = 'first';
  let authorizationId: string | null = null;
  let tokenExpiry: number | null = null;
  let credential: ScramCredential | undefined;
  let clientFirstBare = '';
  let serverFirst = '';
  let nonce = '';

  const first = (message: string): Buffer => {
    const match = CLIENT_FIRST.exec(message);
    if (match === null) throw new SaslFailure(`Invalid SCRAM client first message format: ${message.length} bytes`);
    const [, authzid = '', saslName, clientNonce, extensions] = match as unknown as [string, string | undefined, string, string, string];
    const username = usernameOf(saslName);
    if (username === undefined) throw new SaslFailure('Invalid username');
    let user = username;
    if (parseExtensions(extensions).get('tokenauth') === 'true') {
      const token = tokenLookup(username, mechanism);
      if (token === undefined) throw new SaslFailure(`Token Authentication failed: Invalid tokenId : ${username}`);
      credential = token.credential;
      user = token.owner;
      tokenExpiry = token.expiryTimestamp;
    } else {
      credential = lookup(username, mechanism);
      if (credential === undefined) throw new SaslFailure('Authentication failed: Invalid user credentials');
    }
    if (authzid !== '' && usernameOf(authzid) !== username) {
      throw new SaslAuthenticationFailure('Authentication failed: Client requested an authorization id that is different from username');
    }
    if (credential.iterations < mechanism.minIterations) {
      throw new SaslFailure(`Iterations ${credential.iterations} is less than the minimum ${mechanism.minIterations} for ${mechanism.name}`);
    }
    authorizationId = user;
    clientFirstBare = message.slice(message.indexOf('n=', 2));
    nonce = clientNonce + randomBytes(24).toString('base64').replace(/[+/=]/g, '');
    serverFirst = `r=${nonce},s=${credential.salt.toString('base64')},i=${credential.iterations}`;
    state = 'final';
    return Buffer.from(serverFirst, 'utf8');
  };

  const final = (message: string): Buffer => {
    const match = CLIENT_FINAL.exec(message);
    if (match === null) throw new SaslFailure('Invalid SCRAM client final message format');
    const [, withoutProof, clientNonce, proof] = match as unknown as [string, string, string, string];
    // Kafka 4.3.1 wants the very nonce of the server's first message (older brokers took any ending in it): a client
    // that repeats its own nonce (librdkafka 2.0.x) is refused, as Kafka refuses it.
    if (clientNonce !== nonce) throw new SaslFailure('Invalid client nonce in the final client message.');
    const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
    if (!verifyClientProof(mechanism, credential!, authMessage, Buffer.from(proof, 'base64'))) {
      throw new SaslFailure('Invalid client credentials');
    }
    const signature = hmac(mechanism, credential!.serverKey, authMessage);
    credential = undefined;
    state = 'complete';
    return Buffer.from(`v=${signature.toString('base64')}`, 'utf8');
  };

  return {
    mechanism: mechanism.name,
    get complete() {
      return state === 'complete';
    },
    get authorizationId() {
      return state === 'complete' ? authorizationId : null;
    },
    get tokenAuthenticated() {
      return tokenExpiry !== null;
    },
    get credentialExpiresAtMs() {
      return state === 'complete' ? tokenExpiry : null;
    },
    evaluate(token) {
      try {
        const message = token.toString('utf8');
        if (state === 'first') return first(message);
        if (state === 'final') return final(message);
        throw new SaslFailure(`Unexpected challenge in Sasl server state ${state}`);
      } catch (err) {
        credential = undefined;
        state = 'failed';
        throw err;
      }
    },
  };
}

function parseExtensions(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of text.split(',').filter((p) => p !== '')) {
    const at = part.indexOf('=');
    map.set(part.slice(0, at), part.slice(at + 1));
  }
  return map;
}
