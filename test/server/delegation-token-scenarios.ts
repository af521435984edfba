// Delegation token requests driven by a raw client, run against gregor by the tests and against Kafka 4.3.1's
// reference broker configured the same way (their observations are what the tests assert): a PLAINTEXT port and a
// SASL_PLAINTEXT port (SCRAM-SHA-512, user alice/alice-secret, created through the PLAINTEXT port first). Times are
// shown relative to the token's issue time, token ids and HMACs by their token's name in the scenario.
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { alterUserScramCredentialsApi } from '../../src/protocol/generated/alter-user-scram-credentials.js';
import { createDelegationTokenApi, type CreateDelegationTokenResponse } from '../../src/protocol/generated/create-delegation-token.js';
import { describeDelegationTokenApi, type DescribeDelegationTokenResponse } from '../../src/protocol/generated/describe-delegation-token.js';
import { expireDelegationTokenApi } from '../../src/protocol/generated/expire-delegation-token.js';
import { renewDelegationTokenApi } from '../../src/protocol/generated/renew-delegation-token.js';
import { roundTrip } from './broker-harness.js';
import { RawClient } from './raw-client.js';
import { SaslProbe, ScramClient } from './sasl-probe.js';

type Observation = string;

export async function addAlice(plaintextPort: number): Promise<void> {
  const client = await RawClient.connect(plaintextPort);
  const salt = randomBytes(16);
  await roundTrip(client, alterUserScramCredentialsApi, 0, {
    deletions: [], upsertions: [{ name: 'alice', mechanism: 2, iterations: 8192, salt, saltedPassword: pbkdf2Sync('alice-secret', salt, 8192, 64, 'sha512') }],
  });
  await client.close();
}

/** A SCRAM-SHA-512 connection as alice, or with a token (id, HMAC in base64); the session lifetime it was given. */
async function scram(port: number, user: string, password: string, tokenauth = false): Promise<{ client: RawClient; seen: Observation[] }> {
  const probe = await SaslProbe.connect(port);
  const scramClient = new ScramClient('sha512', user, password, tokenauth ? ',tokenauth=true' : '');
  const seen = [await probe.handshake('SCRAM-SHA-512'), await probe.authenticate(scramClient.first())];
  if (seen[1]!.startsWith('SaslAuthenticate error 0 ')) seen.push(await probe.authenticate(scramClient.final(probe.lastAuthBytes)));
  return { client: probe.client, seen };
}

const renewers = (...names: string[]) => names.map((n) => ({ principalType: n.slice(0, n.indexOf(':')), principalName: n.slice(n.indexOf(':') + 1) }));

export async function runTokenScenarios(plaintextPort: number, saslPort: number): Promise<Record<string, Observation[]>> {
  const out: Record<string, Observation[]> = {};
  const names = new Map<string, string>();
  const showCreate = (name: string, r: CreateDelegationTokenResponse): Observation => {
    if (r.errorCode === 0) names.set(r.tokenId, name);
    const rel = (t: bigint) => (r.errorCode === 0 ? `+${t - r.issueTimestampMs}` : String(t));
    return `Create error ${r.errorCode} owner ${r.principalType}:${r.principalName} requester ${r.tokenRequesterPrincipalType}:${r.tokenRequesterPrincipalName} ` +
      `issue ${r.errorCode === 0 ? 'now' : r.issueTimestampMs} expiry ${rel(r.expiryTimestampMs)} max ${rel(r.maxTimestampMs)} id ${r.errorCode === 0 ? name : JSON.stringify(r.tokenId)} hmac ${r.hmac.length} bytes`;
  };
  const showDescribe = (r: DescribeDelegationTokenResponse): Observation =>
    `Describe error ${r.errorCode} tokens ${r.tokens.map((t) => `${names.get(t.tokenId) ?? '?'}(${t.principalType}:${t.principalName} by ${t.tokenRequesterPrincipalType}:${t.tokenRequesterPrincipalName} ` +
      `renewers ${t.renewers.map((x) => `${x.principalType}:${x.principalName}`).join(',')} expiry ${minutes(t.expiryTimestamp - t.issueTimestamp)} max ${minutes(t.maxTimestamp - t.issueTimestamp)} hmac ${t.hmac.length})`).sort().join(' ')}`;
  // A renewal or expiry moves a token's expiry to "now + period": shown to the minute.
  const minutes = (ms: bigint) => `+${Math.round(Number(ms) / 60_000)}min`;
  const since = (start: number, t: bigint) => (t <= 0n ? String(t) : t - BigInt(start) < 60_000n ? 'about now' : `now+${Math.round(Number(t - BigInt(start)) / 60_000)}min`);

  const plain = await RawClient.connect(plaintextPort);
  out['over PLAINTEXT'] = [
    showCreate('-', await roundTrip(plain, createDelegationTokenApi, 3, { ownerPrincipalType: null, ownerPrincipalName: null, renewers: [], maxLifetimeMs: -1n })),
    showCreate('-', await roundTrip(plain, createDelegationTokenApi, 1, { ownerPrincipalType: '', ownerPrincipalName: '', renewers: [], maxLifetimeMs: -1n })),
    `Renew error ${(await roundTrip(plain, renewDelegationTokenApi, 2, { hmac: Buffer.from('x'), renewPeriodMs: -1n })).errorCode}`,
    showDescribe(await roundTrip(plain, describeDelegationTokenApi, 3, { owners: null })),
  ];
  await plain.close();

  const { client, seen } = await scram(saslPort, 'alice', 'alice-secret');
  const create = (version: number, owner: string | null, renewerList: string[], maxLifetimeMs: bigint) =>
    roundTrip(client, createDelegationTokenApi, version, { ownerPrincipalType: owner === null ? (version < 3 ? '' : null) : 'User', ownerPrincipalName: owner ?? (version < 3 ? '' : null), renewers: renewers(...renewerList), maxLifetimeMs });
  const a = await create(3, null, ['User:bob'], -1n);
  const b = await create(3, 'carol', [], -1n);
  const c = await create(1, null, [], 60_000n);
  out['create'] = [...seen, showCreate('a', a), showCreate('b', b), showCreate('c', c),
    showCreate('-', await create(3, null, ['Group:ops'], -1n)), showCreate('e', await create(3, '', [], -1n))];
  // Kafka's broker learns of a token from its metadata log a moment after the controller made it: describe waits
  // until it lists the four (gregor lists them at once).
  const describeAll = async (count: number) => {
    for (;;) {
      const r = await roundTrip(client, describeDelegationTokenApi, 3, { owners: null });
      if (r.tokens.length === count) return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await describeAll(4);
  out['describe'] = [
    showDescribe(await roundTrip(client, describeDelegationTokenApi, 3, { owners: null })),
    showDescribe(await roundTrip(client, describeDelegationTokenApi, 1, { owners: [{ principalType: 'User', principalName: 'carol' }] })),
    showDescribe(await roundTrip(client, describeDelegationTokenApi, 3, { owners: [{ principalType: 'User', principalName: 'bob' }] })),
    showDescribe(await roundTrip(client, describeDelegationTokenApi, 3, { owners: [] })),
  ];
  const now = Date.now();
  const renew = async (hmac: Buffer, renewPeriodMs: bigint, version = 2) => {
    const r = await roundTrip(client, renewDelegationTokenApi, version, { hmac, renewPeriodMs });
    return `Renew error ${r.errorCode} expiry ${since(now, r.expiryTimestampMs)}`;
  };
  const expire = async (hmac: Buffer, expiryTimePeriodMs: bigint, version = 2) => {
    const r = await roundTrip(client, expireDelegationTokenApi, version, { hmac, expiryTimePeriodMs });
    return `Expire error ${r.errorCode} expiry ${since(now, r.expiryTimestampMs)}`;
  };
  out['renew and expire'] = [
    await renew(a.hmac, 3_600_000n), await renew(a.hmac, -1n, 1), await renew(b.hmac, 3_600_000n), await renew(Buffer.from('nope'), 1n),
    await expire(b.hmac, 1000n), await expire(a.hmac, 600_000n), await expire(c.hmac, -1n, 1),
    showDescribe(await describeAll(3)),
    await renew(c.hmac, 1n),
  ];
  await client.close();

  const token = await scram(saslPort, a.tokenId, a.hmac.toString('base64'), true);
  out['authenticated with a token'] = [
    ...token.seen.map((o) => o.replace(/lifetime (\d+)$/, (_all, ms: string) => `lifetime ${Number(ms) > 500_000 && Number(ms) <= 600_000 ? 'until the token expires' : ms}`)),
    showDescribe(await roundTrip(token.client, describeDelegationTokenApi, 3, { owners: null })),
    `Renew error ${(await roundTrip(token.client, renewDelegationTokenApi, 2, { hmac: a.hmac, renewPeriodMs: -1n })).errorCode}`,
  ];
  await token.client.close();
  const wrong = await scram(saslPort, a.tokenId, 'not-the-hmac', true);
  const unknown = await scram(saslPort, 'no-such-token', a.hmac.toString('base64'), true);
  out['a wrong HMAC, an unknown token'] = [...wrong.seen, ...unknown.seen];
  await Promise.all([wrong.client.close(), unknown.client.close()]);
  return out;
}

/** A broker without delegation.token.secret.key. */
export async function runDisabledScenarios(saslPort: number): Promise<Observation[]> {
  const { client, seen } = await scram(saslPort, 'alice', 'alice-secret');
  const r = await roundTrip(client, createDelegationTokenApi, 3, { ownerPrincipalType: null, ownerPrincipalName: null, renewers: [], maxLifetimeMs: -1n });
  const observed = [...seen,
    `Create error ${r.errorCode} owner ${r.principalType}:${r.principalName} requester ${r.tokenRequesterPrincipalType}:${r.tokenRequesterPrincipalName} issue ${r.issueTimestampMs} expiry ${r.expiryTimestampMs} max ${r.maxTimestampMs} id ${JSON.stringify(r.tokenId)} hmac ${r.hmac.length}`,
    `Renew error ${(await roundTrip(client, renewDelegationTokenApi, 2, { hmac: Buffer.from('x'), renewPeriodMs: -1n })).errorCode}`,
    `Expire error ${(await roundTrip(client, expireDelegationTokenApi, 2, { hmac: Buffer.from('x'), expiryTimePeriodMs: -1n })).errorCode}`,
    `Describe error ${(await roundTrip(client, describeDelegationTokenApi, 3, { owners: null })).errorCode}`];
  await client.close();
  return observed;
}
