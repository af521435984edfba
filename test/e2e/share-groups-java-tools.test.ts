// Kafka 4.3.1's kafka-share-groups against gregor: two share group members (raw ShareGroupHeartbeats, as the
// reference run had them, so the members and their assignment are fixed) and what
// --list and --describe (--members, --state, --verbose) print, line for line what the tool printed against a Kafka
// 4.3.1 broker given the same members (compat-tests/reference); only the assignment's partitions depend on the
// topic's id, which differs between the two brokers. Then one member's acknowledged records and what --describe
// --offsets, --reset-offsets (--dry-run, --execute), --delete-offsets and --delete print, also as against Kafka 4.3.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../src/protocol/generated/find-coordinator.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi, type ShareGroupHeartbeatResponse } from '../../src/protocol/generated/share-group-heartbeat.js';
import { createFetchPartition, createShareFetchRequest, shareFetchApi } from '../../src/protocol/generated/share-fetch.js';
import { roundTrip } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { runJavaTool, runJavaToolOk, sharedToolsBroker } from './java-tools.js';

// Sessions long enough that the members need no heartbeat while the tools run (each takes seconds on a busy machine).
const tools = sharedToolsBroker({ 'node.id': '1', 'group.share.max.session.timeout.ms': '600000', 'group.share.session.timeout.ms': '600000' });
const shareGroups = (...args: string[]) => runJavaToolOk('kafka-share-groups', ['--bootstrap-server', tools.bootstrap, ...args]);
const [M1, M2] = ['m1aaaaaaaaaaaaaaaaaaaa', 'm2aaaaaaaaaaaaaaaaaaaa'];

test('kafka-share-groups --list and --describe print what Kafka 4.3.1 prints for two members of a share group', async () => {
  await runJavaToolOk('kafka-topics', ['--bootstrap-server', tools.bootstrap, '--create', '--topic', 'jobs', '--partitions', '3']);
  const client = await RawClient.connect(tools.broker.port);
  try {
    await roundTrip(client, findCoordinatorApi, 6, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: ['tg1'] });
    const epochs = new Map<string, number>();
    const beat = async (memberId: string, fields: { subscribedTopicNames?: string[]; memberEpoch?: number } = {}): Promise<ShareGroupHeartbeatResponse> => {
      const r = await roundTrip(client, shareGroupHeartbeatApi, 1, {
        ...createShareGroupHeartbeatRequest(), groupId: 'tg1', memberId, memberEpoch: epochs.get(memberId) ?? 0, ...fields,
      });
      assert.equal(r.errorCode, 0);
      epochs.set(memberId, r.memberEpoch);
      return r;
    };
    // As in the reference run: both join, then heartbeat until the initialized partitions are assigned (epoch 3).
    await beat(M1, { subscribedTopicNames: ['jobs'] });
    await beat(M2, { subscribedTopicNames: ['jobs'] });
    while (epochs.get(M1) !== 3 || epochs.get(M2) !== 3) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await beat(M1);
      await beat(M2);
    }

    assert.equal(await shareGroups('--list'), 'tg1\n');
    const port = tools.broker.port;
    const members = (await shareGroups('--describe', '--group', 'tg1', '--members')).split('\n');
    assert.deepEqual(members.slice(0, 2), ['', 'GROUP           CONSUMER-ID            HOST            CLIENT-ID       #PARTITIONS  ASSIGNMENT']);
    assert.match(members[2]!, /^tg1             m1aaaaaaaaaaaaaaaaaaaa \/127\.0\.0\.1      test-client     2            jobs:\d,\d$/);
    assert.match(members[3]!, /^tg1             m2aaaaaaaaaaaaaaaaaaaa \/127\.0\.0\.1      test-client     1            jobs:\d$/);
    const assigned = members.slice(2, 4).flatMap((line) => line.split('jobs:')[1]!.split(',')).sort();
    assert.deepEqual(assigned, ['0', '1', '2']);
    const verbose = (await shareGroups('--describe', '--group', 'tg1', '--members', '--verbose')).split('\n');
    assert.equal(verbose[1], 'GROUP           CONSUMER-ID            HOST            CLIENT-ID       #PARTITIONS  MEMBER-EPOCH  ASSIGNMENT');
    assert.match(verbose[2]!, /^tg1             m1aaaaaaaaaaaaaaaaaaaa \/127\.0\.0\.1      test-client     2            3             jobs:\d,\d$/);
    assert.equal(await shareGroups('--describe', '--group', 'tg1', '--state'), [
      '',
      'GROUP           COORDINATOR (ID)          STATE           #MEMBERS',
      `tg1             127.0.0.1:${port}  (1)      Stable          2`,
      '',
    ].join('\n'));
    assert.equal(await shareGroups('--describe', '--group', 'tg1', '--state', '--verbose'), [
      '',
      'GROUP           COORDINATOR (ID)          STATE           GROUP-EPOCH  ASSIGNMENT-EPOCH  #MEMBERS',
      `tg1             127.0.0.1:${port}  (1)      Stable          3            3                 2`,
      '',
    ].join('\n'));
    const missing = await runJavaTool('kafka-share-groups', ['--bootstrap-server', tools.bootstrap, '--describe', '--group', 'nosuch', '--state']);
    assert.match(missing.stdout + missing.stderr, /Error: Executing share group command failed due to org\.apache\.kafka\.common\.errors\.GroupIdNotFoundException: Group nosuch not found\./);

    await beat(M1, { memberEpoch: -1 });
    await beat(M2, { memberEpoch: -1 });
    const empty = await runJavaTool('kafka-share-groups', ['--bootstrap-server', tools.bootstrap, '--describe', '--group', 'tg1', '--members']);
    assert.deepEqual([empty.code, empty.stdout, empty.stderr], [0, '', "\nShare group 'tg1' has no active members.\n"]);
    assert.equal(await shareGroups('--describe', '--group', 'tg1', '--state', '--verbose'), [
      '',
      'GROUP           COORDINATOR (ID)          STATE           GROUP-EPOCH  ASSIGNMENT-EPOCH  #MEMBERS',
      `tg1             127.0.0.1:${port}  (1)      Empty           5            3                 0`,
      '',
    ].join('\n'));
  } finally {
    await client.close();
  }
});

// SHARE_TOOLS_REFERENCE=host:port runs this test against a Kafka 4.3.1 broker (compat-tests/reference).
test('kafka-share-groups --describe --offsets, --reset-offsets, --delete-offsets and --delete print what Kafka 4.3.1 prints for a share group with acknowledged records', async () => {
  const reference = process.env['SHARE_TOOLS_REFERENCE'];
  const bootstrap = reference ?? tools.bootstrap;
  const [host, port] = reference === undefined ? ['127.0.0.1', tools.broker.port] : [reference.split(':')[0]!, Number(reference.split(':')[1])];
  const run = Date.now();
  const [group, topic] = [`og-${run}`, `work-${run}`];
  const groups = (...args: string[]) => runJavaTool('kafka-share-groups', ['--bootstrap-server', bootstrap, ...args]);
  await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--create', '--topic', topic, '--partitions', '1']);
  await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', bootstrap, '--topic', topic], 'a\nb\nc\nd\ne\n');
  const client = await RawClient.connect(port, host);
  try {
    await roundTrip(client, findCoordinatorApi, 6, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: [group] });
    let memberEpoch = 0;
    let topicId = '';
    for (let i = 0; topicId === '' && i < 100; i++) {
      const r = await roundTrip(client, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: group, memberId: M1, memberEpoch, subscribedTopicNames: memberEpoch === 0 ? [topic] : null });
      if (r.errorCode === 0) memberEpoch = r.memberEpoch;
      topicId = r.assignment?.topicPartitions[0]?.topicId ?? '';
      if (topicId === '') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const fetch = (epoch: number, acks: { first: number; last: number; type: number }[]) => roundTrip(client, shareFetchApi, 1, {
      ...createShareFetchRequest(), groupId: group, memberId: M1, shareSessionEpoch: epoch, maxWaitMs: 1000, minBytes: 1, maxBytes: 1 << 20, maxRecords: 500, batchSize: 500,
      topics: [{ topicId, partitions: [{ ...createFetchPartition(), partitionIndex: 0, acknowledgementBatches: acks.map((a) => ({ firstOffset: BigInt(a.first), lastOffset: BigInt(a.last), acknowledgeTypes: [a.type] })) }] }],
    });
    // The group starts at latest (after a-e); f-j come after it: f and g are accepted, the rest released by the close.
    await fetch(0, []);
    await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', bootstrap, '--topic', topic], 'f\ng\nh\ni\nj\n');
    let epoch = 1;
    for (let acquired = 0; acquired === 0 && epoch < 20; ) acquired = (await fetch(epoch++, [])).responses.flatMap((t) => t.partitions.flatMap((p) => p.acquiredRecords)).length;
    await fetch(epoch++, [{ first: 5, last: 6, type: 1 }]);
    await fetch(-1, []);
    await roundTrip(client, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: group, memberId: M1, memberEpoch: -1 });
    const [g, t] = [Math.max(15, group.length), Math.max(15, topic.length)];
    const described = await groups('--describe', '--group', group, '--offsets');
    assert.deepEqual([described.code, described.stdout], [0, [
      '',
      `${'GROUP'.padEnd(g)} ${'TOPIC'.padEnd(t)} PARTITION  START-OFFSET  LAG`,
      `${group.padEnd(g)} ${topic.padEnd(t)} 0          7             3`,
      '',
    ].join('\n')]);
    const reset = async (...args: string[]) => {
      const r = await groups('--reset-offsets', '--group', group, '--topic', topic, ...args);
      return [r.code, r.stdout, r.stderr];
    };
    const describe = async () => {
      const r = await groups('--describe', '--group', group, '--offsets');
      return [r.code, r.stdout, r.stderr];
    };
    const header = `${'GROUP'.padEnd(g)} ${'TOPIC'.padEnd(t)} PARTITION  `;
    const row = `${group.padEnd(g)} ${topic.padEnd(t)} 0          `;
    const newOffset = (offset: number) => [0, `\n${header}NEW-OFFSET\n${row}${offset}\n`, ''];
    const startAndLag = (start: number, lag: number) => [0, `\n${header}START-OFFSET  LAG\n${row}${String(start).padEnd(13)} ${lag}\n`, ''];
    // --reset-offsets: a dry run prints the new offsets and changes nothing; --execute sets them (AlterShareGroupOffsets).
    assert.deepEqual(await reset('--to-earliest', '--dry-run'), newOffset(0));
    assert.deepEqual(await reset('--to-latest', '--execute'), newOffset(10));
    assert.deepEqual(await describe(), startAndLag(10, 0));
    assert.deepEqual(await reset('--to-datetime', '2000-01-01T00:00:00.000', '--execute'), newOffset(0));
    assert.deepEqual(await describe(), startAndLag(0, 10));
    const offsetsDeleted = await groups('--delete-offsets', '--group', group, '--topic', topic);
    assert.deepEqual([offsetsDeleted.code, offsetsDeleted.stdout, offsetsDeleted.stderr], [0, `\n${'TOPIC'.padEnd(t)} STATUS\n${topic.padEnd(t)} Successful\n`, '']);
    const describedAfter = await groups('--describe', '--group', group, '--offsets');
    assert.deepEqual([describedAfter.code, describedAfter.stdout, describedAfter.stderr], [0, `\nShare group '${group}' has no offset information.\n`, '']);
    const deleted = await groups('--delete', '--group', group);
    assert.deepEqual([deleted.code, deleted.stdout], [0, `Deletion of requested share groups ('${group}') was successful.\n`]);
    const gone = await groups('--describe', '--group', group, '--offsets');
    assert.match(gone.stdout + gone.stderr, new RegExp(`Group ${group} not found`));
  } finally {
    await client.close();
  }
});
