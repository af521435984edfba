// PLAIN (RFC 4616) checked against the users of the listener's JAAS config, with Kafka's PlainSaslServer's messages.
import { timingSafeEqual, createHash } from 'node:crypto';
import { SaslAuthenticationFailure, SaslFailure, type SaslServer } from './sasl-server.js';

/** user name → password, from PlainLoginModule's user_<name>="<password>" options. */
export type PlainUsers = ReadonlyMap<string, string>;

export function plainServer(users: PlainUsers): SaslServer {
  let complete = false;
  let authorizationId: string | null = null;
  return {
    mechanism: 'PLAIN',
    get complete() {
      return complete;
    },
    get authorizationId() {
      return authorizationId;
    },
    evaluate(token) {
      if (complete) throw new SaslFailure('PLAIN authentication already complete');
      const tokens = token.toString('utf8').split('\u0000');
      if (tokens.length !== 3) throw new SaslFailure(`Invalid SASL/PLAIN response: expected 3 tokens, got ${tokens.length}`);
      const [authzid, username, password] = tokens as [string, string, string];
      if (username === '') throw new SaslAuthenticationFailure('Authentication failed: username not specified');
      if (password === '') throw new SaslAuthenticationFailure('Authentication failed: password not specified');
      const expected = users.get(username);
      if (expected === undefined || !sameText(expected, password)) {
        throw new SaslAuthenticationFailure('Authentication failed: Invalid username or password');
      }
      if (authzid !== '' && authzid !== username) {
        throw new SaslAuthenticationFailure('Authentication failed: Client requested an authorization id that is different from username');
      }
      authorizationId = username;
      complete = true;
      return Buffer.alloc(0);
    },
  };
}

/** Compared in constant time (digests of equal length), so the time taken tells nothing of the password. */
function sameText(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
