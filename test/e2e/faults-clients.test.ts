// Fault injection over the HTTP API, from a client in each language: the program itself adds the rules
// (NOT_LEADER_OR_FOLLOWER to the next 3 Produce requests on its topic, a connection dropped after one Produce is
// handled), sends records one at a time with its idempotent producer, removes the rules (DELETE /v1/faults) and reads
// the partition back: every record exactly once, in order (what each client does on a real leader move).
//   confluent-kafka (librdkafka, Python), Kafka 4.3.1's Java client, franz-go (Go); kafkajs: test/server/faults.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import kafkajs from 'kafkajs';
import { startTestBroker } from '../server/broker-harness.js';
import { runJavaProgramOk } from './java-tools.js';

const run = promisify(execFile);
const { Kafka, logLevel } = kafkajs;
const COUNT = 20;
const EXPECTED = Array.from({ length: COUNT }, (_, i) => `v${i}`);

const PYTHON = String.raw`
import sys, json, urllib.request
from confluent_kafka import Producer, Consumer, TopicPartition, OFFSET_BEGINNING
bootstrap, base, topic, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={'content-type': 'application/json'} if data else {})
    return urllib.request.urlopen(req).read()
p = Producer({'bootstrap.servers': bootstrap, 'enable.idempotence': True, 'retry.backoff.ms': 20})
p.list_topics(topic, 10)
call('POST', '/v1/faults', {'api': 'Produce', 'topic': topic, 'action': 'error', 'error': 'NOT_LEADER_OR_FOLLOWER', 'count': 3})
call('POST', '/v1/faults', {'api': 'Produce', 'action': 'drop', 'when': 'after', 'count': 1})
errors = []
for i in range(count):
    p.produce(topic, b'v%d' % i, partition=0, on_delivery=lambda err, m: err and errors.append(str(err)))
    p.flush(30)
call('DELETE', '/v1/faults')
c = Consumer({'bootstrap.servers': bootstrap, 'group.id': 'unused', 'enable.auto.commit': False})
c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
seen = []
for _ in range(300):
    m = c.poll(0.1)
    if m is not None and m.error() is None:
        seen.append(m.value().decode())
    if len(seen) >= count:
        break
c.close()
print(json.dumps({'errors': errors, 'seen': seen}))
`;

let broker: Awaited<ReturnType<typeof startTestBroker>>;
let bootstrap: string;
let base: string;

before(async () => {
  broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  bootstrap = `127.0.0.1:${broker.port}`;
  base = `http://127.0.0.1:${broker.httpAddresses[0]!.port}`;
  const admin = new Kafka({ brokers: [bootstrap], clientId: 'faults-e2e', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ topics: ['python', 'java', 'go'].map((topic) => ({ topic })) });
  await admin.disconnect();
});

after(async () => {
  await broker.close();
});

test('confluent-kafka (librdkafka) idempotent producer recovers from injected faults: every record once, in order', async () => {
  await run('compat-tests/clients/python/install.sh', [], { timeout: 600_000 });
  const { stdout } = await run('compat-tests/.cache/py/venv/bin/python', ['-c', PYTHON, bootstrap, base, 'python', String(COUNT)], { timeout: 120_000 });
  assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), { errors: [], seen: EXPECTED });
});

test('the Java idempotent producer recovers from injected faults: every record once, in order', async () => {
  const out = await runJavaProgramOk('test/e2e/java/FaultRecovery.java', [bootstrap, base, 'java', String(COUNT)]);
  const lines = out.trim().split('\n');
  assert.equal(lines[0], 'left {"rules":[]}');
  assert.deepEqual(lines.slice(1), EXPECTED);
});

test('franz-go\'s idempotent producer recovers from injected faults: every record once, in order', async () => {
  const binary = join(mkdtempSync(join(tmpdir(), 'gregor-faults-go-')), 'faults');
  // The franz-go module comes from compat-tests' Go cache (compat-tests/clients/franz-go/install.sh fills it).
  await run('compat-tests/clients/franz-go/install.sh', [], { timeout: 900_000 });
  await run('go', ['build', '-o', binary, '.'], {
    cwd: 'test/e2e/go/faults', timeout: 900_000,
    env: { ...process.env, GOPATH: resolve('compat-tests/.cache/go'), GOFLAGS: '-modcacherw', GOPROXY: process.env['GOPROXY'] ?? 'off' },
  });
  const { stdout } = await run(binary, [bootstrap, base, 'go', String(COUNT)], { timeout: 120_000 });
  assert.deepEqual(stdout.trim().split('\n'), EXPECTED);
});
