// Delegation tokens end to end with Kafka 4.3.1's kafka-delegation-tokens and a Java client authenticating with a
// token (SCRAM-SHA-512, tokenauth=true). Every line expected is what the same commands printed against Kafka 4.3.1's
// reference broker configured the same way (a SASL_PLAINTEXT listener with SCRAM-SHA-512, SCRAM user alice,
// delegation.token.secret.key=topsecret); token ids, HMACs and dates differ run to run and are checked by shape.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';

const dir = mkdtempSync(join(tmpdir(), 'gregor-tokens-'));
const settings = {
  listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0',
  'log.dirs': join(dir, 'data'),
  'sasl.enabled.mechanisms': 'SCRAM-SHA-512',
  'delegation.token.secret.key': 'topsecret',
};
let broker: Broker;
let plaintext: string;
let sasl: string;
const aliceConfig = join(dir, 'alice.properties');
const tokenConfig = join(dir, 'token.properties');

async function start(): Promise<void> {
  broker = await startBroker(resolveBrokerConfig(settings));
  plaintext = `127.0.0.1:${broker.addresses[0]!.port}`;
  sasl = `127.0.0.1:${broker.addresses[1]!.port}`;
}

const scramConfig = (user: string, password: string, extra = '') =>
  `security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${user}" password="${password}"${extra};\n`;

before(async () => {
  installJavaTools();
  await start();
  writeFileSync(aliceConfig, scramConfig('alice', 'alice-secret'));
  await runJavaToolOk('kafka-configs', ['--bootstrap-server', plaintext, '--alter', '--entity-type', 'users', '--entity-name', 'alice',
    '--add-config', 'SCRAM-SHA-512=[iterations=8192,password=alice-secret]']);
});
after(async () => {
  await broker?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokens = (...args: string[]) => runJavaTool('kafka-delegation-tokens', ['--bootstrap-server', sasl, ...args]);
const DATE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d';
const HEADER = 'TOKENID         HMAC                           OWNER           REQUESTER       RENEWERS                  ISSUEDATE       EXPIRYDATE      MAXDATE        ';

test('kafka-delegation-tokens creates, describes, renews and expires a token; a client authenticates with it', { timeout: 240_000 }, async () => {
  const created = await tokens('--command-config', aliceConfig, '--create', '--max-life-time-period', '-1', '--renewer-principal', 'User:bob');
  assert.equal(created.code, 0, created.stderr);
  const lines = created.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'Calling create token operation with renewers :[User:bob] , max-life-time-period :-1');
  const id = /^Created delegation token with tokenId : (\S{22})$/.exec(lines[1]!)![1]!;
  assert.equal(lines[3], HEADER);
  const row = new RegExp(`^${id} (\\S{88}) User:alice      User:alice      \\[User:bob\\]                (${DATE}) (${DATE}) (${DATE})$`).exec(lines[5]!);
  assert.ok(row !== null, lines[5]);
  const hmac = row[1]!;
  // Kafka's HMAC: HMAC-SHA512 of the token id under delegation.token.secret.key.
  assert.equal(hmac, createHmac('sha512', 'topsecret').update(id).digest('base64'));

  // As Kafka's tool, --describe without an owner sends an empty owner list, which Kafka answers with no tokens.
  const mine = await tokens('--command-config', aliceConfig, '--describe');
  assert.deepEqual(mine.stdout.trimEnd().split('\n'), ['Calling describe token operation for current user.', 'Total number of tokens : 0', HEADER.trimEnd()]);
  const described = await tokens('--command-config', aliceConfig, '--describe', '--owner-principal', 'User:alice');
  assert.match(described.stdout, new RegExp(`\\n${id} ${hmac.replace(/[+/]/g, '\\$&')} User:alice      User:alice      \\[User:bob\\]  `));

  const renewed = await tokens('--command-config', aliceConfig, '--renew', '--renew-time-period', '3600000', '--hmac', hmac);
  assert.match(renewed.stdout, new RegExp(`^Calling renew token operation with hmac :${hmac.replace(/[+/]/g, '\\$&')} , renew-time-period :3600000\\nCompleted renew operation. New expiry date : ${DATE}$`));

  // A client authenticated with the token is its owner; it may not ask for tokens.
  writeFileSync(tokenConfig, scramConfig(id, hmac, ' tokenauth="true"'));
  await runJavaToolOk('kafka-topics', ['--bootstrap-server', sasl, '--command-config', tokenConfig, '--list']);
  const refused = await tokens('--command-config', tokenConfig, '--create', '--max-life-time-period', '-1');
  assert.match(refused.stdout + refused.stderr, /UnsupportedByAuthenticationException: Delegation Token requests are not allowed on PLAINTEXT\/1-way SSL channels and on delegation token authenticated channels\./);

  // Tokens outlive a restart (their HMAC recomputed from the secret).
  await broker.close();
  await start();
  writeFileSync(tokenConfig, scramConfig(id, hmac, ' tokenauth="true"'));
  await runJavaToolOk('kafka-topics', ['--bootstrap-server', sasl, '--command-config', tokenConfig, '--list']);

  const expired = await tokens('--command-config', aliceConfig, '--expire', '--expiry-time-period', '-1', '--hmac', hmac);
  assert.match(expired.stdout, new RegExp(`\\nCompleted expire operation. New expiry date : ${DATE}$`));
  const gone = await runJavaTool('kafka-topics', ['--bootstrap-server', sasl, '--command-config', tokenConfig, '--list']);
  assert.match(gone.stdout + gone.stderr, /Error while executing topic command : Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512/);
  const unknown = await tokens('--command-config', aliceConfig, '--renew', '--renew-time-period', '3600000', '--hmac', 'AAAA');
  assert.match(unknown.stdout + unknown.stderr, /Caused by: org\.apache\.kafka\.common\.errors\.DelegationTokenNotFoundException: Delegation Token is not found on server\./);
});
