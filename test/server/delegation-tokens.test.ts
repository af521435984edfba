// Delegation token requests against gregor, driven by a raw client (test/server/delegation-token-scenarios.ts): every
// answer is what Kafka 4.3.1's reference broker gave configured the same way (a PLAINTEXT and a SASL_PLAINTEXT
// listener with SCRAM-SHA-512 and OAUTHBEARER, user alice, delegation.token.secret.key set; and a broker without it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestBroker } from './broker-harness.js';
import { UNSECURED_JAAS } from './oauthbearer-scenarios.js';
import { addAlice, runDisabledScenarios, runTokenScenarios } from './delegation-token-scenarios.js';

const SETTINGS = {
  listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0',
  'sasl.enabled.mechanisms': 'SCRAM-SHA-512,OAUTHBEARER',
  'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config': UNSECURED_JAAS,
};
let broker: Awaited<ReturnType<typeof startTestBroker>>;
let disabled: Awaited<ReturnType<typeof startTestBroker>>;

before(async () => {
  broker = await startTestBroker({ ...SETTINGS, 'delegation.token.secret.key': 'topsecret' });
  disabled = await startTestBroker(SETTINGS);
  await addAlice(broker.port);
  await addAlice(disabled.port);
});
after(async () => {
  await broker?.close();
  await disabled?.close();
});

test('delegation token requests get what Kafka 4.3.1 answered', async () => {
  assert.deepEqual(await runTokenScenarios(broker.port, broker.addresses[1]!.port), {
    "over PLAINTEXT": ["Create error 64 owner User:ANONYMOUS requester User:ANONYMOUS issue -1 expiry -1 max -1 id \"\" hmac 0 bytes", "Create error 64 owner User:ANONYMOUS requester : issue -1 expiry -1 max -1 id \"\" hmac 0 bytes", "Renew error 64", "Describe error 64 tokens "],
    "create": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 0 message  lifetime 0", "Create error 0 owner User:alice requester User:alice issue now expiry +86400000 max +604800000 id a hmac 64 bytes", "Create error 0 owner User:carol requester User:alice issue now expiry +86400000 max +604800000 id b hmac 64 bytes", "Create error 0 owner User:alice requester : issue now expiry +60000 max +60000 id c hmac 64 bytes", "Create error 67 owner User:alice requester User:alice issue -1 expiry -1 max -1 id \"\" hmac 0 bytes", "Create error 0 owner User:alice requester User:alice issue now expiry +86400000 max +604800000 id e hmac 64 bytes"],
    "describe": ["Describe error 0 tokens a(User:alice by User:alice renewers User:bob expiry +1440min max +10080min hmac 64) b(User:carol by User:alice renewers  expiry +1440min max +10080min hmac 64) c(User:alice by User:alice renewers  expiry +1min max +1min hmac 64) e(User:alice by User:alice renewers  expiry +1440min max +10080min hmac 64)", "Describe error 0 tokens b(User:carol by : renewers  expiry +1440min max +10080min hmac 64)", "Describe error 0 tokens a(User:alice by User:alice renewers User:bob expiry +1440min max +10080min hmac 64)", "Describe error 0 tokens "],
    "renew and expire": ["Renew error 0 expiry now+60min", "Renew error 0 expiry now+1440min", "Renew error 63 expiry 0", "Renew error 62 expiry 0", "Expire error 63 expiry 0", "Expire error 0 expiry now+10min", "Expire error 0 expiry about now", "Describe error 0 tokens a(User:alice by User:alice renewers User:bob expiry +10min max +10080min hmac 64) b(User:carol by User:alice renewers  expiry +1440min max +10080min hmac 64) e(User:alice by User:alice renewers  expiry +1440min max +10080min hmac 64)", "Renew error 62 expiry 0"],
    "authenticated with a token": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 0 message  lifetime until the token expires", "Describe error 64 tokens ", "Renew error 64"],
    "a wrong HMAC, an unknown token": ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0", "SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 58 message Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 lifetime 0"],
  });
});

test('without delegation.token.secret.key every token request gets DELEGATION_TOKEN_AUTH_DISABLED, as from Kafka 4.3.1', async () => {
  assert.deepEqual(await runDisabledScenarios(disabled.addresses[1]!.port), ["SaslHandshake error 0 mechanisms SCRAM-SHA-512,OAUTHBEARER", "SaslAuthenticate error 0 message  lifetime 0", "SaslAuthenticate error 0 message  lifetime 0", "Create error 61 owner User:alice requester User:alice issue 0 expiry 0 max 0 id \"\" hmac 0", "Renew error 61", "Expire error 61", "Describe error 61"]);
});
