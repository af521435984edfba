// The topic administration handlers over a raw socket, answers checked against what Kafka 4.3.1's reference
// broker returned for the same requests (messages, codes, fields).
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeRecordBatch } from '../../../src/protocol/records/record.js';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createTopicsApi, type CreatableTopic } from '../../../src/protocol/generated/create-topics.js';
import { createPartitionsApi } from '../../../src/protocol/generated/create-partitions.js';
import { deleteRecordsApi } from '../../../src/protocol/generated/delete-records.js';
import { deleteTopicsApi } from '../../../src/protocol/generated/delete-topics.js';
import { createDescribeClusterRequest, describeClusterApi } from '../../../src/protocol/generated/describe-cluster.js';
import { describeConfigsApi } from '../../../src/protocol/generated/describe-configs.js';
import { describeLogDirsApi } from '../../../src/protocol/generated/describe-log-dirs.js';
import { alterReplicaLogDirsApi } from '../../../src/protocol/generated/alter-replica-log-dirs.js';
import { describeTopicPartitionsApi } from '../../../src/protocol/generated/describe-topic-partitions.js';
import { electLeadersApi } from '../../../src/protocol/generated/elect-leaders.js';
import { incrementalAlterConfigsApi } from '../../../src/protocol/generated/incremental-alter-configs.js';
import { alterConfigsApi } from '../../../src/protocol/generated/alter-configs.js';
import { listPartitionReassignmentsApi } from '../../../src/protocol/generated/list-partition-reassignments.js';
import { ZERO_UUID } from '../../../src/protocol/io/reader.js';
import { MemoryLogStore } from '../../../src/storage/memory/memory-store.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { RawClient } from '../raw-client.js';

const store = new MemoryLogStore({ nodeId: 1 });
let broker: Awaited<ReturnType<typeof startTestBroker>>;
let client: RawClient;

before(async () => {
  broker = await startTestBroker({ 'node.id': '1' }, { store });
  client = await RawClient.connect(broker.port);
});
after(async () => {
  client.socket.destroy();
  await broker.close();
});

function topic(name: string, numPartitions = -1, replicationFactor = -1, configs: Record<string, string | null> = {}): CreatableTopic {
  return { name, numPartitions, replicationFactor, assignments: [], configs: Object.entries(configs).map(([n, value]) => ({ name: n, value })) };
}

async function create(topics: CreatableTopic[], validateOnly = false, version = 7) {
  return (await roundTrip(client, createTopicsApi, version, { topics, timeoutMs: 5000, validateOnly })).topics;
}

test('CreateTopics: creates, reports v5+ fields, and refuses as Kafka does', async () => {
  const [created] = await create([topic('orders', 3, -1, { 'retention.ms': ' 1000 ' })]);
  assert.equal(created!.errorCode, ErrorCode.NONE);
  assert.equal(created!.errorMessage, null);
  assert.equal(created!.numPartitions, 3);
  assert.equal(created!.replicationFactor, 1);
  assert.equal(created!.topicId, store.topic('orders')!.topicId);
  assert.equal(created!.configs!.length, 33);
  assert.deepEqual(created!.configs!.map((c) => c.name), [...created!.configs!.map((c) => c.name)].sort());
  // The topic's own setting as given, source DYNAMIC_TOPIC_CONFIG; the cluster-level min.insync.replicas.
  assert.deepEqual(created!.configs!.find((c) => c.name === 'retention.ms'),
    { name: 'retention.ms', value: ' 1000 ', readOnly: false, configSource: 1, isSensitive: false });
  assert.equal(created!.configs!.find((c) => c.name === 'min.insync.replicas')!.configSource, 3);
  assert.equal(store.topic('orders')!.partitions, 3);

  await create([topic('t.x')]);
  const results = await create([
    topic('orders'), topic('t_x'), topic('bad!name'), topic('rf3', 1, 3), topic('p', -2), topic('r', -1, 0),
    topic('c1', -1, -1, { 'segment.bytes': '10' }), topic('c2', -1, -1, { 'retention.ms': null }),
    topic('dup'), topic('dup'), topic('__cluster_metadata'), topic('fine', 2),
  ], true);
  assert.deepEqual(results.map((r) => [r.name, r.errorCode, r.errorMessage]), [
    ['orders', ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 'orders' already exists."],
    ['t_x', ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic 't_x' collides with existing topic: t.x"],
    ['bad!name', ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name is invalid: 'bad!name' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"],
    ['rf3', ErrorCode.INVALID_REPLICATION_FACTOR, 'Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because only 1 broker(s) are registered or some brokers have all their log directories cordoned.'],
    ['p', ErrorCode.INVALID_PARTITIONS, 'Number of partitions was set to an invalid non-positive value.'],
    ['r', ErrorCode.INVALID_REPLICATION_FACTOR, 'Replication factor must be larger than 0, or -1 to use the default value.'],
    ['c1', ErrorCode.INVALID_CONFIG, 'Invalid value 10 for configuration segment.bytes: Value must be at least 1048576'],
    ['c2', ErrorCode.INVALID_CONFIG, 'Null value not supported for topic configs: retention.ms'],
    ['fine', ErrorCode.NONE, null],
    ['dup', ErrorCode.INVALID_REQUEST, 'Duplicate topic name.'],
    ['__cluster_metadata', ErrorCode.INVALID_REQUEST, 'Creation of internal topic __cluster_metadata is prohibited.'],
  ]);
  const failed = results[0]!;
  assert.deepEqual([failed.topicId, failed.numPartitions, failed.replicationFactor, failed.configs], [ZERO_UUID, -1, -1, []]);
  assert.equal(store.topic('fine'), undefined, 'validate_only creates nothing');
});

test('CreateTopics: manual assignments', async () => {
  const assigned = (name: string, lists: number[][], rf = -1): CreatableTopic => ({
    ...topic(name, -1, rf), assignments: lists.map((brokerIds, partitionIndex) => ({ partitionIndex, brokerIds })),
  });
  const results = await create([assigned('m1', [[1], [1]]), assigned('m2', [[2]]), assigned('m3', [[1, 1]]), assigned('m4', [[]]), assigned('m5', [[1]], 1)]);
  assert.deepEqual(results.map((r) => [r.errorCode, r.errorMessage]), [
    [ErrorCode.NONE, null],
    [ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes broker 2, but no such broker is registered.'],
    [ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes the broker 1 more than once.'],
    [ErrorCode.INVALID_REPLICA_ASSIGNMENT, 'The manual partition assignment includes an empty replica list.'],
    [ErrorCode.INVALID_REQUEST, 'A manual partition assignment was specified, but replication factor was not set to -1.'],
  ]);
  assert.equal(store.topic('m1')!.partitions, 2);
});

test('CreatePartitions: grows a topic; same, smaller, unknown and duplicate are refused', async () => {
  await create([topic('grow', 2)]);
  const { results } = await roundTrip(client, createPartitionsApi, 3, {
    topics: [
      { name: 'grow', count: 4, assignments: null }, { name: 'orders', count: 3, assignments: null },
      { name: 't.x', count: 0, assignments: null }, { name: 'nope', count: 2, assignments: null },
      { name: 'd', count: 2, assignments: null }, { name: 'd', count: 2, assignments: null },
    ],
    timeoutMs: 5000, validateOnly: false,
  });
  assert.deepEqual(results.map((r) => [r.name, r.errorCode, r.errorMessage]), [
    ['d', ErrorCode.INVALID_REQUEST, 'Duplicate topic name.'],
    ['grow', ErrorCode.NONE, null],
    ['orders', ErrorCode.INVALID_PARTITIONS, 'Topic already has 3 partition(s).'],
    ['t.x', ErrorCode.INVALID_PARTITIONS, 'The topic t.x currently has 1 partition(s); 0 would not be an increase.'],
    ['nope', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null],
  ]);
  assert.equal(store.topic('grow')!.partitions, 4);
});

test('DescribeConfigs: topic synonyms as Kafka lists them, broker default resource, errors', async () => {
  await create([topic('described', 1, -1, { 'retention.ms': '1000', 'cleanup.policy': 'compact' })]);
  const { results } = await roundTrip(client, describeConfigsApi, 4, {
    resources: [
      { resourceType: 2, resourceName: 'described', configurationKeys: ['retention.ms', 'cleanup.policy', 'segment.ms', 'min.insync.replicas'] },
      { resourceType: 2, resourceName: 'nope', configurationKeys: null },
      { resourceType: 4, resourceName: '', configurationKeys: null },
      { resourceType: 4, resourceName: '2', configurationKeys: null },
      { resourceType: 8, resourceName: '1', configurationKeys: null },
    ],
    includeSynonyms: true, includeDocumentation: true,
  });
  const byName = Object.fromEntries(results[0]!.configs.map((c) => [c.name, c]));
  assert.deepEqual(byName['retention.ms']!.synonyms, [{ name: 'retention.ms', value: '1000', source: 1 }]);
  assert.deepEqual(byName['cleanup.policy']!.synonyms, [
    { name: 'cleanup.policy', value: 'compact', source: 1 }, { name: 'log.cleanup.policy', value: 'delete', source: 5 },
  ]);
  // log.roll.ms is unset by default, so Kafka drops log.roll.hours too.
  assert.deepEqual([byName['segment.ms']!.value, byName['segment.ms']!.configSource, byName['segment.ms']!.synonyms], ['604800000', 5, []]);
  assert.deepEqual(byName['min.insync.replicas']!.synonyms.map((s) => s.source), [3, 5]);
  assert.equal(byName['retention.ms']!.configType, 5);
  assert.equal(typeof byName['retention.ms']!.documentation, 'string');
  assert.deepEqual([results[1]!.errorCode, results[1]!.errorMessage, results[1]!.configs], [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, '', []]);
  assert.deepEqual(results[2]!.configs.map((c) => [c.name, c.value, c.configSource]), [['min.insync.replicas', '1', 3]]);
  assert.deepEqual([results[3]!.errorCode, results[3]!.errorMessage], [ErrorCode.INVALID_REQUEST, 'Unexpected broker id, expected 1 or empty string, but received 2']);
  assert.deepEqual(results[4]!.configs.map((c) => [c.name, c.configSource]), [['root', 6]]);
});

test('IncrementalAlterConfigs: SET takes effect on the log at once; APPEND starts from the default; errors', async () => {
  await create([topic('alter', 1)]);
  const op = (name: string, configOperation: number, value: string | null) => ({ name, configOperation, value });
  const { responses } = await roundTrip(client, incrementalAlterConfigsApi, 1, {
    resources: [
      { resourceType: 2, resourceName: 'alter', configs: [op('retention.ms', 0, '12345'), op('cleanup.policy', 2, 'compact')] },
      { resourceType: 2, resourceName: 'orders', configs: [op('retention.ms', 2, '5')] },
      { resourceType: 2, resourceName: 'nope', configs: [op('retention.ms', 0, '5')] },
      { resourceType: 4, resourceName: '1', configs: [op('num.partitions', 0, '5')] },
      { resourceType: 8, resourceName: '1', configs: [op('root', 1, null)] },
    ],
    validateOnly: false,
  });
  assert.deepEqual(responses.map((r) => [r.errorCode, r.errorMessage]), [
    [ErrorCode.NONE, null],
    [ErrorCode.INVALID_CONFIG, "Can't APPEND to key retention.ms because its type is not LIST."],
    [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic 'nope' does not exist."],
    [ErrorCode.INVALID_REQUEST, 'Cannot update these configs dynamically: [num.partitions]'],
    [ErrorCode.INVALID_REQUEST, 'Removing the log level of the root logger is not allowed'],
  ]);
  assert.deepEqual(store.topic('alter')!.configs, { 'retention.ms': '12345', 'cleanup.policy': 'delete,compact' });
  assert.equal(store.log('alter', 0)!.config.retentionMs, 12345);
  assert.equal(store.log('alter', 0)!.config.compactEnabled, true);

  // Key and trust stores are reloadable only per listener (listener.name.<l>.ssl...), as Kafka 4.3.1 answers.
  const security = await roundTrip(client, incrementalAlterConfigsApi, 1, {
    resources: [{ resourceType: 4, resourceName: '1', configs: [op('ssl.keystore.type', 0, 'PKCS12')] }],
    validateOnly: false,
  });
  assert.deepEqual(security.responses.map((r) => [r.errorCode, r.errorMessage]), [[ErrorCode.INVALID_REQUEST,
    'These security configs can be dynamically updated only per-listener using the listener prefix: [ssl.keystore.type]']]);

  const legacy = await roundTrip(client, alterConfigsApi, 2, {
    resources: [{ resourceType: 2, resourceName: 'alter', configs: [{ name: 'segment.ms', value: '60000' }] }],
    validateOnly: false,
  });
  assert.equal(legacy.responses[0]!.errorCode, ErrorCode.NONE);
  assert.deepEqual(store.topic('alter')!.configs, { 'segment.ms': '60000' }, 'legacy AlterConfigs replaces the whole set');
});

test('DeleteRecords: moves the log start offset; beyond the high watermark, unknown and compacted are refused', async () => {
  await create([topic('records', 2), topic('compacted', 1, -1, { 'cleanup.policy': 'compact' })]);
  const batch = encodeRecordBatch({ records: [0, 1, 2, 3, 4].map((i) => ({ timestamp: 1_700_000_000_000 + i, key: null, value: Buffer.from(`v${i}`) })) });
  await store.log('records', 0)!.append(batch, { leaderEpoch: 0 });
  const { topics } = await roundTrip(client, deleteRecordsApi, 2, {
    topics: [
      { name: 'records', partitions: [{ partitionIndex: 0, offset: 3n }, { partitionIndex: 1, offset: 1n }, { partitionIndex: 7, offset: 0n }] },
      { name: 'compacted', partitions: [{ partitionIndex: 0, offset: 0n }] },
    ],
    timeoutMs: 5000,
  });
  assert.deepEqual(topics.map((t) => t.partitions.map((p) => [p.partitionIndex, p.lowWatermark, p.errorCode])), [
    [[0, 3n, ErrorCode.NONE], [1, -1n, ErrorCode.OFFSET_OUT_OF_RANGE], [7, -1n, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]],
    [[0, -1n, ErrorCode.POLICY_VIOLATION]],
  ]);
  assert.equal(store.log('records', 0)!.logStartOffset, 3);
  const all = await roundTrip(client, deleteRecordsApi, 2, { topics: [{ name: 'records', partitions: [{ partitionIndex: 0, offset: -1n }] }], timeoutMs: 5000 });
  assert.equal(all.topics[0]!.partitions[0]!.lowWatermark, 5n);

  const dirs = await roundTrip(client, describeLogDirsApi, 4, { topics: [{ topic: 'records', partitions: [0, 1, 9] }] });
  assert.deepEqual(dirs.results[0]!.topics.map((t) => [t.name, t.partitions.map((p) => p.partitionIndex)]), [['records', [0, 1]]]);
});

test('DescribeTopicPartitions: sorted, limited, continued with the cursor', async () => {
  await create([topic('za', 3), topic('zb', 2)]);
  const first = await roundTrip(client, describeTopicPartitionsApi, 0, { topics: [{ name: 'zb' }, { name: 'za' }, { name: 'zz' }], responsePartitionLimit: 4, cursor: null });
  assert.deepEqual(first.topics.map((t) => [t.name, t.errorCode, t.partitions.map((p) => p.partitionIndex)]), [['za', 0, [0, 1, 2]], ['zb', 0, [0]]]);
  assert.deepEqual(first.nextCursor, { topicName: 'zb', partitionIndex: 1 });
  const next = await roundTrip(client, describeTopicPartitionsApi, 0, { topics: [{ name: 'zb' }, { name: 'za' }, { name: 'zz' }], responsePartitionLimit: 4, cursor: first.nextCursor });
  assert.deepEqual(next.topics.map((t) => [t.name, t.errorCode, t.partitions.map((p) => p.partitionIndex)]),
    [['zb', 0, [1]], ['zz', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, []]]);
  assert.equal(next.nextCursor, null);
});

test('DeleteTopics: by name and id, unknown and duplicate', async () => {
  await create([topic('gone1'), topic('gone2')]);
  const id2 = store.topic('gone2')!.topicId;
  const { responses } = await roundTrip(client, deleteTopicsApi, 6, {
    topics: [
      { name: 'gone1', topicId: ZERO_UUID }, { name: null, topicId: id2 }, { name: 'nope', topicId: ZERO_UUID },
      { name: null, topicId: 'b2-lGxk1Sr2W9nZ3Xb7y8g' }, { name: 'x', topicId: ZERO_UUID }, { name: 'x', topicId: ZERO_UUID },
    ],
    topicNames: [], timeoutMs: 5000,
  });
  const byKey = new Map(responses.map((r) => [r.name ?? r.topicId, [r.errorCode, r.errorMessage]]));
  assert.deepEqual(byKey.get('gone1'), [ErrorCode.NONE, null]);
  assert.deepEqual(byKey.get('gone2'), [ErrorCode.NONE, null]);
  assert.deepEqual(byKey.get('nope'), [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'This server does not host this topic-partition.']);
  assert.deepEqual(byKey.get('b2-lGxk1Sr2W9nZ3Xb7y8g'), [ErrorCode.UNKNOWN_TOPIC_ID, 'This server does not host this topic ID.']);
  assert.deepEqual(byKey.get('x'), [ErrorCode.INVALID_REQUEST, 'Duplicate topic name.']);
  assert.equal(store.topic('gone1'), undefined);
  assert.equal(store.topic('gone2'), undefined);
});

test('ElectLeaders, ListPartitionReassignments, DescribeCluster: a single broker\'s answers', async () => {
  const elected = await roundTrip(client, electLeadersApi, 2, { electionType: 0, topicPartitions: [{ topic: 'orders', partitions: [0, 9] }, { topic: 'nope', partitions: [0] }], timeoutMs: 1000 });
  assert.deepEqual(elected.replicaElectionResults.map((t) => t.partitionResult.map((p) => [p.errorCode, p.errorMessage])), [
    [[ErrorCode.ELECTION_NOT_NEEDED, 'Leader election not needed for topic partition.'], [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'No such partition as orders-9']],
    [[ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 'No such topic as nope']],
  ]);
  const listed = await roundTrip(client, listPartitionReassignmentsApi, 0, { timeoutMs: 1000, topics: null });
  assert.deepEqual([listed.errorCode, listed.topics], [ErrorCode.NONE, []]);
  const cluster = await roundTrip(client, describeClusterApi, 1, { ...createDescribeClusterRequest(), endpointType: 1 });
  assert.deepEqual([cluster.controllerId, cluster.brokers], [1, [{ brokerId: 1, host: '127.0.0.1', port: broker.port, rack: null, isFenced: false }]]);
  const controllers = await roundTrip(client, describeClusterApi, 1, { ...createDescribeClusterRequest(), endpointType: 2 });
  assert.equal(controllers.errorCode, ErrorCode.MISMATCHED_ENDPOINT_TYPE);
  // v2 (KIP-1073): the broker is never fenced, so it is listed whether fenced brokers are asked for or not.
  for (const includeFencedBrokers of [false, true]) {
    const v2 = await roundTrip(client, describeClusterApi, 2, { ...createDescribeClusterRequest(), includeFencedBrokers });
    assert.deepEqual([v2.errorCode, v2.brokers], [ErrorCode.NONE, [{ brokerId: 1, host: '127.0.0.1', port: broker.port, rack: null, isFenced: false }]]);
  }
});

test('DescribeLogDirs v5: one log dir, its absolute path, not cordoned; AlterReplicaLogDirs answers as Kafka 4.3.1 does with one dir', async () => {
  await create([topic('moved', 2)]);
  const logDir = resolve('data');
  const dirs = await roundTrip(client, describeLogDirsApi, 5, { topics: [{ topic: 'moved', partitions: [0, 1] }] });
  assert.deepEqual(dirs.results.map((r) => [r.errorCode, r.logDir, r.isCordoned, r.topics.map((t) => [t.name, t.partitions.map((p) => p.partitionIndex)])]),
    [[ErrorCode.NONE, logDir, false, [['moved', [0, 1]]]]]);
  const long = 'x'.repeat(214);
  const dir = (path: string, topics: [string, number[]][]) => ({ path, topics: topics.map(([name, partitions]) => ({ name, partitions })) });
  for (const version of [1, 2]) {
    const moved = await roundTrip(client, alterReplicaLogDirsApi, version, {
      dirs: [
        dir(logDir, [['moved', [0, 9]], ['nope', [0]], ['x'.repeat(213), [0]], [long, [0]]]),
        dir(`${logDir}/`, [['moved', [1]]]),
        dir('/no/such/dir', [['nope', [1]], [long, [1]]]),
        // Named again, in another dir: the last one counts.
        dir('data', [['moved', [0]]]),
      ],
    });
    assert.deepEqual(moved.results.map((t) => [t.topicName, t.partitions.map((p) => [p.partitionIndex, p.errorCode])]), [
      ['moved', [[0, ErrorCode.LOG_DIR_NOT_FOUND], [9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION], [1, ErrorCode.LOG_DIR_NOT_FOUND]]],
      ['nope', [[0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION], [1, ErrorCode.LOG_DIR_NOT_FOUND]]],
      ['x'.repeat(213), [[0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]]],
      [long, [[0, ErrorCode.INVALID_TOPIC_EXCEPTION], [1, ErrorCode.INVALID_TOPIC_EXCEPTION]]],
    ], `v${version}`);
    const same = await roundTrip(client, alterReplicaLogDirsApi, version, { dirs: [dir(logDir, [['moved', [0, 1]]])] });
    assert.deepEqual(same.results.map((t) => [t.topicName, t.partitions.map((p) => [p.partitionIndex, p.errorCode])]),
      [['moved', [[0, ErrorCode.NONE], [1, ErrorCode.NONE]]]], `v${version}`);
  }
});

test('cordoned.log.dirs=*: DescribeLogDirs v5 reports the dir cordoned; moving a replica into it is INVALID_REPLICA_ASSIGNMENT', async () => {
  const cordoned = await startTestBroker({ 'cordoned.log.dirs': '*' });
  const c = await RawClient.connect(cordoned.port);
  try {
    const logDir = resolve('data');
    const dirs = await roundTrip(c, describeLogDirsApi, 5, { topics: null });
    assert.deepEqual(dirs.results.map((r) => [r.logDir, r.isCordoned]), [[logDir, true]]);
    const moved = await roundTrip(c, alterReplicaLogDirsApi, 2, { dirs: [{ path: logDir, topics: [{ name: 'nope', partitions: [0] }] }, { path: '/elsewhere', topics: [{ name: 'nope', partitions: [1] }] }] });
    assert.deepEqual(moved.results.map((t) => t.partitions.map((p) => [p.partitionIndex, p.errorCode])), [[[0, ErrorCode.INVALID_REPLICA_ASSIGNMENT], [1, ErrorCode.LOG_DIR_NOT_FOUND]]]);
  } finally {
    await c.close();
    await cordoned.close();
  }
});
