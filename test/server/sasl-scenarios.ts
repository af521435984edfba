// The SASL state machine scenarios, run by the authenticator test against gregor; run against Kafka
// 4.3.1's reference broker configured the same way (PLAIN with alice/alice-secret, SCRAM-SHA-512 user alice
// with 8192 iterations) to get the observations the test expects.
import { plainToken, runEach, SaslProbe, ScramClient, type Observation } from './sasl-probe.js';

export type Scenario = (p: SaslProbe) => Promise<Observation[]>;

export const scenarios: Record<string, Scenario> = {
  'a request before the handshake': async (p) => [await p.metadata()],
  'ApiVersions, then a request before the handshake': async (p) => [await p.apiVersions(), await p.metadata()],
  'ApiVersions twice': async (p) => [await p.apiVersions(), await p.apiVersions()],
  'a mechanism not enabled': async (p) => [await p.handshake('GSSAPI'), await p.apiVersions()],
  'a request other than SaslAuthenticate after the handshake': async (p) => [await p.handshake('PLAIN'), await p.metadata(), await p.apiVersions()],
  'PLAIN, wrong password': async (p) => [await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', 'wrong')), await p.apiVersions()],
  'PLAIN, unknown user': async (p) => [await p.handshake('PLAIN'), await p.authenticate(plainToken('mallory', 'x'))],
  'PLAIN, empty password': async (p) => [await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', ''))],
  'PLAIN, another authorization id': async (p) => [await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', 'alice-secret', 'bob'))],
  'PLAIN, then requests, SaslHandshake and SaslAuthenticate again': async (p) => [
    await p.apiVersions(), await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', 'alice-secret')),
    await p.metadata(), await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', 'alice-secret')), await p.apiVersions(),
  ],
  'PLAIN with SaslAuthenticate v0 and v1': async (p) => [await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', 'alice-secret'), 0), await p.metadata()],
  'PLAIN with a v0 handshake and a raw token': async (p) => [await p.handshake('PLAIN', 0), await p.rawToken(plainToken('alice', 'alice-secret')), await p.metadata()],
  'PLAIN with a v0 handshake and a wrong raw token': async (p) => [await p.handshake('PLAIN', 0), await p.rawToken(plainToken('alice', 'nope'))],
  'SCRAM-SHA-512': async (p) => {
    const scram = new ScramClient('sha512', 'alice', 'alice-secret');
    const out = [await p.handshake('SCRAM-SHA-512'), await p.authenticate(scram.first())];
    out.push(await p.authenticate(scram.final(p.lastAuthBytes)), p.lastAuthBytes.toString().startsWith('v=') ? 'server signature' : 'no signature');
    out.push(await p.metadata());
    return out;
  },
  'SCRAM-SHA-512, wrong password': async (p) => {
    const scram = new ScramClient('sha512', 'alice', 'wrong');
    return [await p.handshake('SCRAM-SHA-512'), await p.authenticate(scram.first()), await p.authenticate(scram.final(p.lastAuthBytes))];
  },
  'SCRAM-SHA-512, the client nonce repeated in the final message (librdkafka 2.0.x)': async (p) => {
    const scram = new ScramClient('sha512', 'alice', 'alice-secret');
    const first = scram.first();
    const out = [await p.handshake('SCRAM-SHA-512'), await p.authenticate(first)];
    const clientNonce = /r=([^,]+)/.exec(first.toString())![1]!;
    const final = scram.final(p.lastAuthBytes, (nonce) => clientNonce + nonce);
    out.push(await p.authenticate(final));
    return out;
  },
  'SCRAM-SHA-512, unknown user': async (p) => [await p.handshake('SCRAM-SHA-512'), await p.authenticate(new ScramClient('sha512', 'mallory', 'x').first())],
  'SCRAM-SHA-256 without a credential for it': async (p) => [await p.handshake('SCRAM-SHA-256'), await p.authenticate(new ScramClient('sha256', 'alice', 'alice-secret').first())],
  'SCRAM-SHA-512 with tokenauth and no delegation tokens': async (p) => [
    await p.handshake('SCRAM-SHA-512'), await p.authenticate(new ScramClient('sha512', 'alice', 'alice-secret', ',tokenauth=true').first()),
  ],
  'SCRAM-SHA-512, a malformed first message': async (p) => [await p.handshake('SCRAM-SHA-512'), await p.authenticate(Buffer.from('hello'))],
};

/** Runs every scenario on a fresh connection each. */
export function runScenarios(port: number): Promise<Record<string, Observation[]>> {
  return runEach(port, scenarios);
}
