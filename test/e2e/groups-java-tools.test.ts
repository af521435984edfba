// Apache Kafka's own group tools against gregor: the console consumer with --group, then
// kafka-consumer-groups --list/--describe (offsets, state, members)/--reset-offsets (every mode)/
// --delete-offsets/--delete. The expected text is what the same commands print against Apache
// Kafka 4.3.1 (compat-tests/reference), ports aside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/server/broker.js';

const BIN = 'compat-tests/bin';

function runTool(tool: string, args: string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${BIN}/${tool}`, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.end(input);
  });
}

/** Output lines without the JVM's log noise and trailing blanks. */
function lines(out: string): string[] {
  return out
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '' && !/^\[?\d{4}-\d\d-\d\d|WARN|SLF4J/.test(l));
}

function table(rows: string[][]): string[] {
  return rows.map((cells) => cells.join(' ').replace(/\s+/g, ' '));
}

function squeeze(out: string): string[] {
  return lines(out).map((l) => l.replace(/\s+/g, ' '));
}

test('kafka-console-consumer --group and kafka-consumer-groups print what they print against Kafka', { timeout: 300_000 }, async () => {
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.log.engine': 'memory' }));
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  const groups = (...args: string[]): Promise<string> => runTool('kafka-consumer-groups', ['--bootstrap-server', bootstrap, ...args]);
  let live: ChildProcess | undefined;
  try {
    await runTool('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', 'jt', '--partitions', '3']);
    await runTool(
      'kafka-console-producer',
      ['--bootstrap-server', bootstrap, '--topic', 'jt', '--command-property', 'enable.idempotence=false', '--reader-property', 'parse.key=true', '--reader-property', 'key.separator=:'],
      'k1:a\nk2:b\nk3:c\nk4:d\nk5:e\nk6:f\nk7:g\nk8:h\n',
    );
    const consumed = await runTool('kafka-console-consumer', ['--bootstrap-server', bootstrap, '--topic', 'jt', '--group', 'gj', '--from-beginning', '--max-messages', '8', '--timeout-ms', '60000']);
    assert.match(consumed, /Processed a total of 8 messages/);

    assert.deepEqual(lines(await groups('--list')), ['gj']);
    const header = 'GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID';
    // Keys k1..k8 land on partitions 0:2, 1:4, 2:2 by murmur2, on Kafka as here.
    const described = table([
      ['gj', 'jt', '0', '2', '2', '0', '-', '-', '-'],
      ['gj', 'jt', '1', '4', '4', '0', '-', '-', '-'],
      ['gj', 'jt', '2', '2', '2', '0', '-', '-', '-'],
    ]);
    assert.deepEqual(squeeze(await groups('--describe', '--group', 'gj')), ["Consumer group 'gj' has no active members.", header, ...described]);
    assert.deepEqual(squeeze(await groups('--describe', '--group', 'gj', '--state')), [
      "Consumer group 'gj' has no active members.",
      'GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS',
      `gj ${bootstrap} (1) - Empty 0`,
    ]);
    assert.deepEqual(squeeze(await groups('--describe', '--group', 'gj', '--members')), [
      "Consumer group 'gj' has no active members.",
      'GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS',
    ]);

    // The tool prints the partitions in its own hash order: compare them sorted.
    const reset = async (args: string[], expected: [string, string][]): Promise<void> => {
      const [head, ...rows] = squeeze(await groups('--reset-offsets', '--group', 'gj', ...args, '--execute'));
      assert.equal(head, 'GROUP TOPIC PARTITION NEW-OFFSET');
      assert.deepEqual(rows.sort(), expected.map(([p, o]) => `gj jt ${p} ${o}`).sort(), args.join(' '));
    };
    await reset(['--to-earliest', '--topic', 'jt'], [['1', '0'], ['2', '0'], ['0', '0']]);
    await reset(['--shift-by', '1', '--topic', 'jt'], [['1', '1'], ['2', '1'], ['0', '1']]);
    await reset(['--to-offset', '1', '--topic', 'jt:0'], [['0', '1']]);
    await reset(['--to-datetime', '2020-01-01T00:00:00.000', '--topic', 'jt'], [['1', '0'], ['2', '0'], ['0', '0']]);
    await reset(['--to-latest', '--topic', 'jt'], [['1', '4'], ['2', '2'], ['0', '2']]);

    assert.deepEqual(squeeze(await groups('--delete-offsets', '--group', 'gj', '--topic', 'jt:1')), [
      'Request succeeded for deleting offsets from group gj.',
      'TOPIC PARTITION STATUS',
      'jt 1 Successful',
    ]);
    assert.deepEqual(squeeze(await groups('--delete', '--group', 'gj')), ["Deletion of requested consumer groups ('gj') was successful."]);
    assert.deepEqual(squeeze(await groups('--delete', '--group', 'nosuch')), [
      'Error: Deletion of some consumer groups failed:',
      "* Group 'nosuch' could not be deleted due to: org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.",
    ]);
    assert.deepEqual(lines(await groups('--list')), []);
    // DescribeGroups v6 answers GROUP_ID_NOT_FOUND: the tool fails with Kafka's exception (then its stack trace).
    assert.deepEqual(squeeze(await groups('--describe', '--group', 'gj')).slice(0, 2), [
      'Error: Executing consumer group command failed due to org.apache.kafka.common.errors.GroupIdNotFoundException: Group gj not found.',
      'java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.GroupIdNotFoundException: Group gj not found.',
    ]);

    // A live member: --describe shows its id, host and client id; the group is Stable.
    live = spawn(`${BIN}/kafka-console-consumer`, ['--bootstrap-server', bootstrap, '--topic', 'jt', '--group', 'live', '--timeout-ms', '120000'], { stdio: 'ignore' });
    let state: string[] = [];
    for (let attempt = 0; attempt < 120; attempt++) {
      state = squeeze(await groups('--describe', '--group', 'live', '--state'));
      if (state.some((l) => l.includes('Stable'))) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.deepEqual(state, ['GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS', `live ${bootstrap} (1) range Stable 1`]);
    const members = squeeze(await groups('--describe', '--group', 'live', '--members'));
    assert.equal(members[0], 'GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS');
    assert.match(members[1]!, /^live console-consumer-[0-9a-f-]+ \/127\.0\.0\.1 console-consumer 3$/);
    assert.match(squeeze(await groups('--delete', '--group', 'live')).join('\n'), /NonEmptyGroupException|is not empty/);
  } finally {
    live?.kill('SIGKILL');
    await broker.close();
  }
});
