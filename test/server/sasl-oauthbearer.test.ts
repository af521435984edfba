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
import { startTestBroker } from './broker-harness.js';
import { SaslProbe } from './sasl-probe.js';
import {
  EXPECTED_AUDIENCE, EXPECTED_ISSUER, JWKS_HANDLER, UNSECURED_JAAS, runJwksScenarios, runUnsecuredScenarios, signingKey, unsecuredToken,
} from './oauthbearer-scenarios.js';

const dir = mkdtempSync(join(tmpdir(), 'gregor-oauthbearer-'));
let key: Awaited<ReturnType<typeof signingKey>>;
let broker: Awaited<ReturnType<typeof startTestBroker>>;

before(async () => {
  key = await signingKey();
  writeFileSync(join(dir, 'jwks.json'), key.jwks);
  broker = await startTestBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,JWKS://127.0.0.1:0,SHORT://127.0.0.1:0',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,JWKS:SASL_PLAINTEXT,SHORT:SASL_PLAINTEXT',
    'listener.name.sasl_plaintext.sasl.enabled.mechanisms': 'SCRAM-SHA-512,OAUTHBEARER',
    'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config': UNSECURED_JAAS,
    'listener.name.jwks.sasl.enabled.mechanisms': 'OAUTHBEARER',
    'listener.name.jwks.oauthbearer.sasl.jaas.config': 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;',
    'listener.name.jwks.oauthbearer.sasl.server.callback.handler.class': JWKS_HANDLER,
    'sasl.oauthbearer.jwks.endpoint.url': pathToFileURL(join(dir, 'jwks.json')).href,
    'sasl.oauthbearer.expected.audience': EXPECTED_AUDIENCE,
    'sasl.oauthbearer.expected.issuer': EXPECTED_ISSUER,
    'listener.name.short.sasl.enabled.mechanisms': 'OAUTHBEARER',
    'listener.name.short.oauthbearer.sasl.jaas.config': UNSECURED_JAAS,
    'listener.name.short.oauthbearer.connections.max.reauth.ms': '60000',
  });
});
after(async () => {
  await broker?.close();
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
