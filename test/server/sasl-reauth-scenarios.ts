// Re-authentication scenarios (KIP-368) for a listener with connections.max.reauth.ms=2000 and PLAIN users alice and
// bob; run against Kafka 4.3.1's reference broker configured so, they gave what the reauth test expects.
import { setTimeout as sleep } from 'node:timers/promises';
import { plainToken, runEach, SaslProbe, ScramClient, type Observation } from './sasl-probe.js';

export const REAUTH_MS = 2000;

const login = async (p: SaslProbe, user = 'alice'): Promise<Observation[]> =>
  [await p.handshake('PLAIN'), await p.authenticate(plainToken(user, `${user}-secret`))];

export const reauthScenarios: Record<string, (p: SaslProbe) => Promise<Observation[]>> = {
  'the session lifetime, then re-authentication as the same user': async (p) =>
    [...await login(p), await p.metadata(), ...await login(p), await p.metadata()],
  'SaslAuthenticate v0 learns no lifetime; the session still ends': async (p) =>
    [await p.handshake('PLAIN'), await p.authenticate(plainToken('alice', 'alice-secret'), 0), await p.metadata()],
  're-authentication as another user': async (p) => [...await login(p), ...await login(p, 'bob'), await p.metadata()],
  're-authentication with another mechanism': async (p) =>
    [...await login(p), await p.handshake('SCRAM-SHA-512'), await p.authenticate(new ScramClient('sha512', 'alice', 'alice-secret').first()), await p.metadata()],
  'a request after the session ended': async (p) => {
    const out = await login(p);
    await sleep(REAUTH_MS + 500);
    return [...out, await p.metadata()];
  },
  're-authentication twice within a second': async (p) => [...await login(p), ...await login(p), ...await login(p), await p.metadata()],
};

export function runReauthScenarios(port: number): Promise<Record<string, Observation[]>> {
  return runEach(port, reauthScenarios);
}
