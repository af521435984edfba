// AlterPartitionReassignments and ListPartitionReassignments over a raw socket, on a single broker (node 1):
// every answer is what Kafka 4.3.1's reference broker (one combined node) returned for the same request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { alterPartitionReassignmentsApi } from '../../../src/protocol/generated/alter-partition-reassignments.js';
import { createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { listPartitionReassignmentsApi } from '../../../src/protocol/generated/list-partition-reassignments.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { RawClient } from '../raw-client.js';

let broker: Awaited<ReturnType<typeof startTestBroker>>;
let client: RawClient;

before(async () => {
  broker = await startTestBroker({ 'node.id': '1' });
  client = await RawClient.connect(broker.port);
  const created = await roundTrip(client, createTopicsApi, 7, {
    topics: [{ name: 't1', numPartitions: 2, replicationFactor: -1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false,
  });
  assert.equal(created.topics[0]!.errorCode, ErrorCode.NONE);
});
after(async () => {
  await client.close();
  await broker.close();
});

type Target = [partition: number, replicas: number[] | null];

function reassign(topics: [string, ...Target[]][], allowReplicationFactorChange = true, version = 1) {
  return roundTrip(client, alterPartitionReassignmentsApi, version, {
    timeoutMs: 30_000,
    allowReplicationFactorChange,
    topics: topics.map(([name, ...targets]) => ({ name, partitions: targets.map(([partitionIndex, replicas]) => ({ partitionIndex, replicas })) })),
  });
}

/** The single partition result of a one-partition request: [code, message]. */
async function reassignOne(topic: string, target: Target, allowReplicationFactorChange = true, version = 1) {
  const response = await reassign([[topic, target]], allowReplicationFactorChange, version);
  assert.deepEqual([response.errorCode, response.errorMessage, response.allowReplicationFactorChange],
    [ErrorCode.NONE, null, version >= 1 ? allowReplicationFactorChange : true]);
  assert.deepEqual(response.responses.map((t) => [t.name, t.partitions.map((p) => p.partitionIndex)]), [[topic, [target[0]]]]);
  const { errorCode, errorMessage } = response.responses[0]!.partitions[0]!;
  return [errorCode, errorMessage];
}

const invalid = (message: string) => [ErrorCode.INVALID_REPLICA_ASSIGNMENT, message];

test('reassigning a partition to this broker succeeds and completes at once', async () => {
  assert.deepEqual(await reassignOne('t1', [0, [1]]), [ErrorCode.NONE, null]);
  assert.deepEqual(await reassignOne('t1', [1, [1]], false), [ErrorCode.NONE, null]);
  assert.deepEqual(await reassignOne('t1', [0, [1]], true, 0), [ErrorCode.NONE, null]);
  const listed = await roundTrip(client, listPartitionReassignmentsApi, 0, { timeoutMs: 1000, topics: null });
  assert.deepEqual([listed.errorCode, listed.topics], [ErrorCode.NONE, []]);
  // A partition named twice, a topic named twice: each answered, as asked.
  const twice = await reassign([['t1', [0, [1]], [0, [1]]], ['t1', [1, [1]]]], true, 0);
  assert.deepEqual(twice.responses.map((t) => [t.name, t.partitions.map((p) => [p.partitionIndex, p.errorCode])]),
    [['t1', [[0, ErrorCode.NONE], [0, ErrorCode.NONE]]], ['t1', [[1, ErrorCode.NONE]]]]);
});

test('targets Kafka refuses: a broker that does not exist, a repeated broker, an empty list (lowest id checked first)', async () => {
  const noBroker = (id: number) => invalid(`The manual partition assignment includes broker ${id}, but no such broker is registered.`);
  assert.deepEqual(await reassignOne('t1', [0, [2]]), noBroker(2));
  assert.deepEqual(await reassignOne('t1', [0, [-1]]), noBroker(-1));
  assert.deepEqual(await reassignOne('t1', [0, [1, 2]]), noBroker(2));
  assert.deepEqual(await reassignOne('t1', [0, [1, 2]], false), noBroker(2));
  assert.deepEqual(await reassignOne('t1', [0, [2, 2]], false), noBroker(2));
  assert.deepEqual(await reassignOne('t1', [0, [1, 1]]), invalid('The manual partition assignment includes the broker 1 more than once.'));
  assert.deepEqual(await reassignOne('t1', [0, [3, 1, 1]], false), invalid('The manual partition assignment includes the broker 1 more than once.'));
  assert.deepEqual(await reassignOne('t1', [0, []]), invalid('The manual partition assignment includes an empty replica list.'));
});

test('a missing topic or partition is UNKNOWN_TOPIC_OR_PARTITION; cancelling when nothing is in progress is NO_REASSIGNMENT_IN_PROGRESS', async () => {
  assert.deepEqual(await reassignOne('t1', [5, [1]]), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find partition t1:5.']);
  assert.deepEqual(await reassignOne('t1', [-1, null]), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find partition t1:-1.']);
  assert.deepEqual(await reassignOne('nope', [0, [1]]), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find a topic named nope.']);
  assert.deepEqual(await reassignOne('nope', [0, null]), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find a topic named nope.']);
  assert.deepEqual(await reassignOne('', [0, [1]]), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'Unable to find a topic named .']);
  // Kafka leaves the message out: it would be the code's own.
  assert.deepEqual(await reassignOne('t1', [0, null]), [ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, null]);
});

test('a request without topics gets Kafka\'s default answer; a topic without partitions an empty list', async () => {
  for (const [version, allow] of [[1, false], [0, true]] as const) {
    assert.deepEqual(await reassign([], allow, version),
      { throttleTimeMs: 0, allowReplicationFactorChange: true, errorCode: ErrorCode.NONE, errorMessage: '', responses: [] });
  }
  assert.deepEqual(await reassign([['t1']], false),
    { throttleTimeMs: 0, allowReplicationFactorChange: false, errorCode: ErrorCode.NONE, errorMessage: null, responses: [{ name: 't1', partitions: [] }] });
});
