// OAUTHBEARER on SASL_PLAINTEXT listeners, driven by the raw SASL probe: Kafka's default unsecured-JWT validation and
// JWKS validation (a file: JWKS), each scenario answered exactly as Kafka 4.3.1's reference broker answered it when
// configured the same way (test/server/oauthbearer-scenarios.ts): a refused token gets the RFC 7628 error JSON as a
// challenge, then SASL_AUTHENTICATION_FAILED with that JSON once the client acknowledges it; the session lasts as
// long as the token (or connections.max.reauth.ms, if shorter).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestBroker } from './broker-harness.js';
import { SaslProbe } from './sasl-probe.js';
import {
  EXPECTED_AUDIENCE, EXPECTED_ISSUER, JWKS_HANDLER, UNSECURED_JAAS, runJwksScenarios, runUnsecuredScenarios, signingKey, unsecuredToken,
} from './oauthbearer-scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'gregor-oauthbearer-'));
let key: Awaited<ReturnType<typeof signingKey>>;
let broker: Awaited<ReturnType<typeof startTestBroker>>;
// An http JWKS endpoint: serves `served` (one request counted per fetch).
let served = '';
let fetches = 0;
const jwksServer = createServer((_req, res) => {
  fetches++;
  res.writeHead(200, { 'content-type': 'application/json' }).end(served);
});

before(async () => {
  key = await signingKey();
  writeFileSync(join(dir, 'jwks.json'), key.jwks);
  served = key.jwks;
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const jwksPort = (jwksServer.address() as AddressInfo).port;
  broker = await startTestBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,JWKS://127.0.0.1:0,SHORT://127.0.0.1:0,HTTPJWKS://127.0.0.1:0',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,JWKS:SASL_PLAINTEXT,SHORT:SASL_PLAINTEXT,HTTPJWKS:SASL_PLAINTEXT',
    'listener.name.httpjwks.sasl.enabled.mechanisms': 'OAUTHBEARER',
    'listener.name.httpjwks.oauthbearer.sasl.jaas.config': 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;',
    'listener.name.httpjwks.oauthbearer.sasl.server.callback.handler.class': JWKS_HANDLER,
    'listener.name.httpjwks.sasl.oauthbearer.jwks.endpoint.url': `http://127.0.0.1:${jwksPort}/jwks`,
    'listener.name.sasl_plaintext.sasl.enabled.mechanisms': 'SCRAM-SHA-512,OAUTHBEARER',
    'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config': UNSECURED_JAAS,
    'listener.name.jwks.sasl.enabled.mechanisms': 'OAUTHBEARER',
    'listener.name.jwks.oauthbearer.sasl.jaas.config': 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;',
    'listener.name.jwks.oauthbearer.sasl.server.callback.handler.class': JWKS_HANDLER,
    'sasl.oauthbearer.jwks.endpoint.url': pathToFileURL(join(dir, 'jwks.json')).href,
    // The JWKS listener's own expectations (Kafka's reference had them broker-wide); the http one has none.
    'listener.name.jwks.sasl.oauthbearer.expected.audience': EXPECTED_AUDIENCE,
    'listener.name.jwks.sasl.oauthbearer.expected.issuer': EXPECTED_ISSUER,
    'listener.name.short.sasl.enabled.mechanisms': 'OAUTHBEARER',
    'listener.name.short.oauthbearer.sasl.jaas.config': UNSECURED_JAAS,
    'listener.name.short.oauthbearer.connections.max.reauth.ms': '60000',
  });
});
after(async () => {
  await broker?.close();
  jwksServer.close();
  rmSync(dir, { recursive: true, force: true });
});

test('unsecured JWT validation answers as Kafka 4.3.1', async () => {
  assert.deepEqual(await runUnsecuredScenarios(broker.addresses[1]!.port, key.sign), {
  "a valid token": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime <token>", "Metadata topics probe-topic:3"],
  "a token with the scope in a list": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime <token>", "Metadata topics probe-topic:3"],
  "an expired token": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "a token without the required scope": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"insufficient_scope\", \"scope\":\"[kafka]\"}", "SaslAuthenticate error 58 message {\"status\":\"insufficient_scope\", \"scope\":\"[kafka]\"} lifetime 0", "closed"],
  "a token without sub": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "a token without exp": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "a signed token": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "another authorization id": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 58 message Authentication failed: Client requested an authorization id (bob) that is different from the token's principal name (alice) lifetime 0", "closed"],
  "a malformed client response": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism OAUTHBEARER lifetime 0"],
});
});

test('JWKS validation answers as Kafka 4.3.1', async () => {
  assert.deepEqual(await runJwksScenarios(broker.addresses[2]!.port, key.sign), {
  "a valid signed token": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime <token>", "Metadata topics probe-topic:3"],
  "a wrong audience": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "a wrong issuer": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "an expired token": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "expired within the clock skew": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "closed"],
  "a token without iat": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "an unsecured token": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
  "a token signed by another key": ["SaslHandshake error 0 mechanisms OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "challenge {\"status\":\"invalid_token\"}", "SaslAuthenticate error 58 message {\"status\":\"invalid_token\"} lifetime 0", "closed"],
});
});

test('the session lasts until the token expires or connections.max.reauth.ms, whichever is first', async () => {
  const now = Math.floor(Date.now() / 1000);
  const lifetime = async (exp: number): Promise<number> => {
    const probe = await SaslProbe.connect(broker.addresses[3]!.port);
    try {
      await probe.handshake('OAUTHBEARER');
      const seen = await probe.authenticate(Buffer.from(`n,,\u0001auth=Bearer ${unsecuredToken({ sub: 'alice', iat: now, exp, scope: 'kafka' })}\u0001\u0001`));
      return Number(/lifetime (\d+)$/.exec(seen)![1]);
    } finally {
      await probe.close();
    }
  };
  assert.equal(await lifetime(now + 3600), 60_000);
  const short = await lifetime(now + 30);
  assert.ok(short > 20_000 && short <= 30_000, `lifetime ${short}`);
});

test('an OAUTHBEARER listener gregor cannot serve as configured stops the start in one line', async () => {
  const start = (settings: Record<string, string>) =>
    startTestBroker({ listeners: 'SASL_PLAINTEXT://127.0.0.1:0', 'sasl.enabled.mechanisms': 'OAUTHBEARER', ...settings });
  const jaas = 'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config';
  const handler = 'listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class';
  await assert.rejects(start({}), /^Error: listener\.name\.sasl_plaintext\.oauthbearer\.sasl\.jaas\.config is not set: OAUTHBEARER on listener SASL_PLAINTEXT needs it/);
  // Kafka 4.3.1 fails its start-up the same way: its broker logs in with an unsecured token made from the entry.
  await assert.rejects(start({ [jaas]: 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;' }),
    { message: `${jaas}: No principal name in JWT claim: sub (set unsecuredLoginStringClaim_sub="admin" in it, as Kafka's broker logs in with it)` });
  await assert.rejects(start({ [jaas]: UNSECURED_JAAS.replace(';', ' unsecuredValidatorAllowableClockSkewMs="-1";') }),
    { message: `${jaas}: Allowable clock skew millis must not be negative: -1` });
  await assert.rejects(start({ [jaas]: UNSECURED_JAAS, [handler]: JWKS_HANDLER }),
    { message: 'The OAuth validator for the broker requires "sasl.oauthbearer.jwks.endpoint.url" to be configured so that JWT signatures can be verified, but it was not set. Set "sasl.oauthbearer.jwks.endpoint.url" to the OAuth/OIDC provider\'s JWKS endpoint URL for this listener, or configure a signature-verifying "sasl.oauthbearer.jwt.validator.class".' });
  await assert.rejects(start({ [jaas]: UNSECURED_JAAS, [handler]: JWKS_HANDLER, 'sasl.oauthbearer.jwks.endpoint.url': 'file:///no/such/jwks.json' }),
    { message: 'The OAuth configuration option sasl.oauthbearer.jwks.endpoint.url contains a file (/no/such/jwks.json) that doesn\'t exist' });
  await assert.rejects(start({ [jaas]: UNSECURED_JAAS, [handler]: 'com.example.MyHandler' }),
    { message: `${handler}: com.example.MyHandler is not served by gregor (${JWKS_HANDLER} and the default unsecured validator are)` });
});

/** One OAUTHBEARER exchange on a listener: the SaslAuthenticate observations. */
async function authenticate(port: number, token: string): Promise<string[]> {
  const probe = await SaslProbe.connect(port);
  try {
    await probe.handshake('OAUTHBEARER');
    const seen = [await probe.authenticate(Buffer.from(`n,,\u0001auth=Bearer ${token}\u0001\u0001`))];
    if (probe.lastAuthBytes.length > 0) seen.push(await probe.authenticate(Buffer.from([1])));
    return seen.map((o) => o.replace(/lifetime [1-9]\d*$/, 'lifetime <token>'));
  } finally {
    await probe.close();
  }
}

test('the JWKS is read again: a file when it changes, an http endpoint when it was not fetched yet', async () => {
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: 'bob', iat: now, exp: now + 3600, aud: EXPECTED_AUDIENCE, iss: EXPECTED_ISSUER };
  const accepted = ['SaslAuthenticate error 0 message  lifetime <token>'];
  const refused = ['SaslAuthenticate error 0 message  lifetime 0', 'SaslAuthenticate error 58 message {"status":"invalid_token"} lifetime 0'];
  // The file: a rotated key is refused until the file holds it.
  const rotated = await signingKey();
  assert.deepEqual(await authenticate(broker.addresses[2]!.port, await rotated.sign(claims)), refused);
  writeFileSync(join(dir, 'jwks.json'), rotated.jwks);
  assert.deepEqual(await authenticate(broker.addresses[2]!.port, await rotated.sign(claims)), accepted);
  assert.deepEqual(await authenticate(broker.addresses[2]!.port, await key.sign(claims)), refused);
  writeFileSync(join(dir, 'jwks.json'), key.jwks);
  // http: fetched on the first token, not before; then kept (sasl.oauthbearer.jwks.endpoint.refresh.ms, an hour).
  // This listener expects no audience and no issuer: as from Kafka 4.3.1 configured so, a token naming an audience
  // is refused (jose4j's default audience check), a blank subject and a future nbf too, a future iat is accepted.
  // (Each outcome below is what the reference gave.)
  const plain = { sub: 'bob', iat: now, exp: now + 3600 };
  assert.equal(fetches, 0);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign(plain)), accepted);
  assert.equal(fetches, 1);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, aud: 'any' })), refused);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, sub: ' ' })), refused);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, iat: now + 600 })), accepted);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, nbf: now + 600 })), refused);
  // Scopes: a blank one or one twice is refused (ClaimValidationUtils.validateScopes); a string is one scope.
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, scope: ['a', 'a'] })), refused);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, scope: ['a', ' '] })), refused);
  assert.deepEqual(await authenticate(broker.addresses[4]!.port, await key.sign({ ...plain, scope: 'a b' })), accepted);
  assert.equal(fetches, 1);
});
