// Issue #16's acceptance for KIP-848 consumer groups, with Apache Kafka 4.3.1's own clients and tools. Every expected
// line below is what the same steps print against Kafka 4.3.1 (compat-tests/reference, run by hand with the same
// group.consumer.* settings; only the coordinator's address differs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { installJavaTools, runJavaTool } from './java-tools.js';

const KAFKA_LIBS = resolve('compat-tests/.cache/kafka-4.3.1/libs');
/** A member's session and heartbeat are the broker's under this protocol: 6 s and 500 ms keep the steps short. */
const CONSUMER_GROUP_SETTINGS = {
  'group.consumer.min.session.timeout.ms': '6000',
  'group.consumer.session.timeout.ms': '6000',
  'group.consumer.min.heartbeat.interval.ms': '500',
  'group.consumer.heartbeat.interval.ms': '500',
};

async function startOn(dataDir: string, port: number): Promise<Broker> {
  return startBroker(resolveBrokerConfig({ listeners: `PLAINTEXT://127.0.0.1:${port}`, 'log.dirs': dataDir, ...CONSUMER_GROUP_SETTINGS }));
}

test('five group.protocol=consumer consumers on 10 partitions lose no record through a rolling restart and a broker restart', { timeout: 400_000 }, async () => {
  installJavaTools();
  const dataDir = await mkdtemp(join(tmpdir(), 'gregor-consumer-rolling-'));
  let broker = await startOn(dataDir, 0);
  const port = broker.addresses[0]!.port;
  try {
    const child = spawn('java', ['-cp', `${KAFKA_LIBS}/*`, resolve('test/e2e/java/ConsumerProtocolRolling.java'), `127.0.0.1:${port}`, 'rolling', 'rolling-group', '5000'],
      { stdio: ['pipe', 'pipe', 'pipe'] });
    const printed: string[] = [];
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const exited = new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
    for await (const line of createInterface({ input: child.stdout })) {
      // The client's own log lines (a consumer closed mid-reconciliation logs an ERROR, against Kafka too) are left out.
      if (!/^(five|rolled|restart|received|committed|group) /.test(line)) continue;
      printed.push(line);
      if (line === 'restart the broker') {
        await broker.close();
        broker = await startOn(dataDir, port);
        child.stdin.end('restarted\n');
      }
    }
    assert.equal(await exited, 0, `the program failed: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    assert.deepEqual(printed, [
      'five consumers in a Stable group of type Consumer',
      'rolled all five consumers',
      'restart the broker',
      'received 5000 of 5000, missing []',
      'committed offsets sum to 5000',
      'group Stable with 5 members holding 10 partitions',
    ]);
  } finally {
    await broker.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

/** The tool's stderr then stdout (a group without members is said on stderr, its table on stdout), the coordinator's
 * address (the only thing that differs from Kafka's) normalised. */
async function tool(name: string, args: readonly string[], bootstrap: string, input = ''): Promise<string> {
  const run = await runJavaTool(name, ['--bootstrap-server', bootstrap, ...args], input);
  assert.equal(run.code, 0, `${name} ${args.join(' ')}: ${run.stderr}`);
  return (run.stderr + run.stdout).replaceAll(`${bootstrap} `, 'COORDINATOR');
}

test('the console consumer with group.protocol=consumer, and kafka-consumer-groups on the Consumer group, print what they print against Kafka', { timeout: 300_000 }, async () => {
  installJavaTools();
  const dataDir = await mkdtemp(join(tmpdir(), 'gregor-consumer-tools-'));
  const broker = await startOn(dataDir, 0);
  const bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
  try {
    await tool('kafka-console-producer', ['--topic', 'cgt1'], bootstrap, 'm0\nm1\nm2\nm3\nm4\n');
    const read = await runJavaTool('kafka-console-consumer', ['--bootstrap-server', bootstrap, '--topic', 'cgt1', '--group', 'cgg1',
      '--consumer-property', 'group.protocol=consumer', '--from-beginning', '--max-messages', '5']);
    assert.equal(read.code, 0, read.stderr);
    // Kafka's 4.3.1 console consumer prints the deprecation on stdout too.
    assert.equal(read.stdout, 'Option --consumer-property is deprecated and will be removed in a future version. Use --command-property instead.\n' +
      'm0\nm1\nm2\nm3\nm4\n');
    assert.match(read.stderr, /Processed a total of 5 messages/);

    assert.equal(await tool('kafka-consumer-groups', ['--list', '--type'], bootstrap),
      'GROUP                     TYPE                \ncgg1                      Consumer            \n');
    const noMembers = "\nConsumer group 'cgg1' has no active members.\n\n";
    const offsets = (current: number) => noMembers +
      'GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\n' +
      `cgg1            cgt1            0          ${String(current).padEnd(16)}5               ${String(5 - current).padEnd(16)}-               -               -\n`;
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1'], bootstrap), offsets(5));
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1', '--offsets'], bootstrap), offsets(5));
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1', '--members'], bootstrap), noMembers +
      'GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     \n');
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1', '--members', '--verbose'], bootstrap), noMembers +
      'GROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     CURRENT-EPOCH   CURRENT-ASSIGNMENT   TARGET-EPOCH    TARGET-ASSIGNMENT   \n');
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1', '--state'], bootstrap), noMembers +
      'GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS\n' +
      'cgg1            COORDINATOR (1)      uniform              Empty                0\n');
    // The console consumer's join is the group's epoch 2 (its first epoch once the topic exists), its leave 3.
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1', '--state', '--verbose'], bootstrap), noMembers +
      'GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                GROUP-EPOCH     TARGET-ASSIGNMENT-EPOCH   #MEMBERS\n' +
      'cgg1            COORDINATOR (1)      uniform              Empty                3               2                         0\n');
    assert.equal(await tool('kafka-consumer-groups', ['--reset-offsets', '--group', 'cgg1', '--topic', 'cgt1', '--to-offset', '2', '--execute'], bootstrap),
      '\nGROUP           TOPIC           PARTITION  NEW-OFFSET\ncgg1            cgt1            0          2\n');
    assert.equal(await tool('kafka-consumer-groups', ['--describe', '--group', 'cgg1', '--offsets'], bootstrap), offsets(2));
    assert.equal(await tool('kafka-consumer-groups', ['--delete', '--group', 'cgg1'], bootstrap),
      "Deletion of requested consumer groups ('cgg1') was successful.\n");
    const gone = await runJavaTool('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', 'cgg1']);
    assert.match(gone.stdout + gone.stderr, /^Error: Executing consumer group command failed due to org\.apache\.kafka\.common\.errors\.GroupIdNotFoundException: Group cgg1 not found\.$/m);
    assert.equal(await tool('kafka-consumer-groups', ['--list'], bootstrap), '');
  } finally {
    await broker.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
