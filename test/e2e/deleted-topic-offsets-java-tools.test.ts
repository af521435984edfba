// kafka-consumer-groups --describe after kafka-topics --delete: a deleted topic's committed offsets are gone (the
// group coordinator writes tombstones for them) and do not come back when the name is created again. The expected
// text is what the same commands printed against Apache Kafka 4.3.1 (compat-tests/reference) after the same
// OffsetCommit requests (v9, generation -1: offsets 5 and 6 on t, 5 on other).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createOffsetCommitRequest, offsetCommitApi } from '../../src/protocol/generated/offset-commit.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { roundTrip, startTestBroker } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';

before(() => installJavaTools());

/** Output lines, blanks and JVM log noise left out, runs of spaces squeezed. */
function squeeze(out: string): string[] {
  return out
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '' && !/^\[?\d{4}-\d\d-\d\d|WARN|SLF4J/.test(l));
}

const HEADER = 'GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID';

test('kafka-consumer-groups --describe no longer lists a deleted topic, nor its offsets once the name is re-created', { timeout: 300_000 }, async () => {
  const broker = await startTestBroker({ 'offsets.topic.num.partitions': '2' });
  const bootstrap = `127.0.0.1:${broker.port}`;
  const topics = (...args: string[]): Promise<string> => runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, ...args]);
  // The tool prints the notice on stderr and the table on stdout.
  const describe = async (group: string): Promise<{ stderr: string[]; stdout: string[] }> => {
    const run = await runJavaTool('kafka-consumer-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', group]);
    assert.equal(run.code, 0, run.stderr);
    return { stderr: squeeze(run.stderr), stdout: squeeze(run.stdout) };
  };
  const noMembers = (group: string): string[] => [`Consumer group '${group}' has no active members.`];
  const client = await RawClient.connect(broker.port);
  try {
    await topics('--create', '--topic', 't', '--partitions', '2');
    await topics('--create', '--topic', 'other', '--partitions', '1');
    for (const [groupId, topic, offsets] of [['g', 't', [5n, 6n]], ['g', 'other', [5n]], ['h', 't', [5n, 6n]]] as const) {
      const committed = await roundTrip(client, offsetCommitApi, 9, {
        ...createOffsetCommitRequest(),
        groupId,
        generationIdOrMemberEpoch: -1,
        topics: [{ name: topic, topicId: ZERO_UUID, partitions: offsets.map((committedOffset, partitionIndex) => ({ partitionIndex, committedOffset, committedLeaderEpoch: -1, committedMetadata: 'm' })) }],
      });
      assert.deepEqual(committed.topics[0]!.partitions.map((p) => p.errorCode), offsets.map(() => ErrorCode.NONE));
    }
    assert.deepEqual(await describe('g'), {
      stderr: noMembers('g'),
      stdout: [HEADER, 'g other 0 5 0 -5 - - -', 'g t 0 5 0 -5 - - -', 'g t 1 6 0 -6 - - -'],
    });

    await topics('--delete', '--topic', 't');
    const afterDelete = { g: { stderr: noMembers('g'), stdout: [HEADER, 'g other 0 5 0 -5 - - -'] }, h: { stderr: noMembers('h'), stdout: [] } };
    assert.deepEqual({ g: await describe('g'), h: await describe('h') }, afterDelete);

    await topics('--create', '--topic', 't', '--partitions', '2');
    assert.deepEqual({ g: await describe('g'), h: await describe('h') }, afterDelete);
  } finally {
    await client.close();
    await broker.close();
  }
});
