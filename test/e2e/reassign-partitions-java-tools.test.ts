// Kafka 4.3.1's kafka-reassign-partitions (ReassignPartitionsCommand) on gregor, a single broker: --generate,
// --execute (with and without a throttle), --verify, --cancel and --list print what they print against Kafka
// 4.3.1's reference broker (its log dir aside); the refusals the tool makes itself print Kafka's lines too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestBroker } from '../server/broker-harness.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';

const COMMAND = 'org.apache.kafka.tools.reassign.ReassignPartitionsCommand';

let dir: string;
let broker: Awaited<ReturnType<typeof startTestBroker>>;
let bootstrap: string;

before(async () => {
  installJavaTools();
  dir = await mkdtemp(join(tmpdir(), 'gregor-reassign-'));
  broker = await startTestBroker({ 'node.id': '1', 'log.dirs': join(dir, 'data'), 'gregor.log.engine': 'file' });
  bootstrap = `127.0.0.1:${broker.port}`;
  await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 'rt', '--partitions', '2']);
});
after(async () => {
  await broker?.close();
  await rm(dir, { recursive: true, force: true });
});

async function jsonFile(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(content));
  return path;
}

const reassign = (...args: string[]) => runJavaToolOk('kafka-run-class', [COMMAND, '--bootstrap-server', bootstrap, ...args]);

test('kafka-reassign-partitions --generate, --execute, --verify, --cancel, --list on one broker', { timeout: 600_000 }, async () => {
  const current = `{"version":1,"partitions":[{"topic":"rt","partition":0,"replicas":[1],"log_dirs":["${join(dir, 'data')}"]},` +
    `{"topic":"rt","partition":1,"replicas":[1],"log_dirs":["${join(dir, 'data')}"]}]}`;
  const topics = await jsonFile('topics.json', { topics: [{ topic: 'rt' }], version: 1 });
  assert.equal(await reassign('--generate', '--topics-to-move-json-file', topics, '--broker-list', '1'),
    `Current partition replica assignment\n${current}\n\nProposed partition reassignment configuration\n` +
    '{"version":1,"partitions":[{"topic":"rt","partition":0,"replicas":[1],"log_dirs":["any"]},{"topic":"rt","partition":1,"replicas":[1],"log_dirs":["any"]}]}\n');

  const ok = await jsonFile('ok.json', { version: 1, partitions: [{ topic: 'rt', partition: 0, replicas: [1] }, { topic: 'rt', partition: 1, replicas: [1] }] });
  const started = `Current partition replica assignment\n\n${current}\n\nSave this to use as the --reassignment-json-file option during rollback\n`;
  assert.equal(await reassign('--execute', '--reassignment-json-file', ok), `${started}Successfully started partition reassignments for rt-0,rt-1\n`);
  const verified = 'Status of partition reassignment:\nReassignment of partition rt-0 is completed.\nReassignment of partition rt-1 is completed.\n\n' +
    'Clearing broker-level throttles on broker 1\nClearing topic-level throttles on topic rt\n';
  assert.equal(await reassign('--verify', '--reassignment-json-file', ok), verified);
  // Kafka's own output runs two lines together here.
  assert.equal(await reassign('--cancel', '--reassignment-json-file', ok),
    'None of the specified partition reassignments are active.\nNone of the specified partition moves are active.' +
    'Clearing broker-level throttles on broker 1\nClearing topic-level throttles on topic rt\n');
  assert.equal(await reassign('--list'), 'No partition reassignments found.\n');

  assert.equal(await reassign('--execute', '--reassignment-json-file', ok, '--throttle', '1000'),
    `${started}Warning: You must run --verify periodically, until the reassignment completes, to ensure the throttle is removed.\n` +
    'The inter-broker throttle limit was set to 1000 B/s\nSuccessfully started partition reassignments for rt-0,rt-1\n');
  assert.equal(await reassign('--verify', '--reassignment-json-file', ok), verified);
  assert.equal(await reassign('--execute', '--reassignment-json-file', ok, '--disallow-replication-factor-change'),
    `${started}Successfully started partition reassignments for rt-0,rt-1\n`);
});

test('kafka-reassign-partitions refuses an unknown broker, a repeated one, a missing partition or topic as with Kafka', { timeout: 600_000 }, async () => {
  const cases: [string, unknown, string][] = [
    ['nobroker.json', [{ topic: 'rt', partition: 0, replicas: [2] }], 'Error: Unknown broker id 2'],
    ['dup.json', [{ topic: 'rt', partition: 0, replicas: [1, 1] }],
      'Error: Partition replica lists may not contain duplicate entries: rt-0 contains multiple entries for 1'],
    ['nopart.json', [{ topic: 'rt', partition: 7, replicas: [1] }],
      'Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Unable to find partition: rt-7'],
    ['notopic.json', [{ topic: 'nope', partition: 0, replicas: [1] }],
      'Error: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: Topic nope not found.'],
  ];
  for (const [name, partitions, firstLine] of cases) {
    const file = await jsonFile(name, { version: 1, partitions });
    const run = await runJavaTool('kafka-run-class', [COMMAND, '--bootstrap-server', bootstrap, '--execute', '--reassignment-json-file', file]);
    assert.equal(run.code, 1, name);
    assert.equal((run.stdout + run.stderr).split('\n')[0], firstLine, name);
  }
});
