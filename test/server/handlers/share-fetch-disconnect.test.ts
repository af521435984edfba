// A share consumer dies with a long-poll ShareFetch pending (the Java share consumer may have one when it is
// killed): Kafka 4.3.1 notices the close only when that fetch ends (the socket server mutes a channel while its
// request is handled), then releases what the member held, delivered a second time to the next consumer. Every
// outcome is what the same requests got from a Kafka 4.3.1 broker (set SHARE_FETCH_REFERENCE=host:port to run
// against one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { createFetchPartition, createShareFetchRequest, shareFetchApi, type ShareFetchResponse } from '../../../src/protocol/generated/share-fetch.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { createAlterableConfig, createAlterConfigsResource, createIncrementalAlterConfigsRequest, incrementalAlterConfigsApi } from '../../../src/protocol/generated/incremental-alter-configs.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../../src/protocol/generated/find-coordinator.js';
import { RawClient } from '../raw-client.js';
import { encodeRequest, roundTrip, startTestBroker } from '../broker-harness.js';
import { batch, produce, values } from '../../broker/data-harness.js';

const GROUP_RESOURCE = 32;

test("a closed connection's share session is released after its fetch in flight ends, not before", async () => {
  const reference = process.env['SHARE_FETCH_REFERENCE'];
  const broker = reference === undefined ? await startTestBroker({ 'node.id': '1', 'group.share.assignment.interval.ms': '0' }) : undefined;
  const [host, port] = reference === undefined ? ['127.0.0.1', broker!.port] : [reference.split(':')[0]!, Number(reference.split(':')[1])];
  const admin = await RawClient.connect(port, host);
  const dying = await RawClient.connect(port, host);
  const other = await RawClient.connect(port, host);
  const topic = `sfd-${Date.now()}`;
  const group = `g-${topic}`;
  try {
    const created = await roundTrip(admin, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: topic, numPartitions: 1, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    const configs = [['share.auto.offset.reset', 'earliest'], ['share.record.lock.duration.ms', '15000']];
    const altered = await roundTrip(admin, incrementalAlterConfigsApi, 1, {
      ...createIncrementalAlterConfigsRequest(),
      resources: [{ ...createAlterConfigsResource(), resourceType: GROUP_RESOURCE, resourceName: group, configs: configs.map(([name, value]) => ({ ...createAlterableConfig(), name: name!, configOperation: 0, value: value! })) }],
    });
    assert.equal(altered.responses[0]!.errorCode, ErrorCode.NONE);
    await produce(admin, topic, 0, batch(values('a', 'b', 'c')));
    const [memberA, memberB] = ['AAAAAAAAAAAAAAAAAAAAAQ', 'AAAAAAAAAAAAAAAAAAAAAg'];
    const beat = (memberId: string, memberEpoch: number, subscribedTopicNames: string[] | null) =>
      roundTrip(admin, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: group, memberId, memberEpoch, subscribedTopicNames });
    // FindCoordinator creates __consumer_offsets on a fresh broker; its coordinator may take a moment to load.
    await roundTrip(admin, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: [group] });
    let joined = await beat(memberA, 0, [topic]);
    for (let i = 0; i < 100 && joined.errorCode !== ErrorCode.NONE; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      joined = await beat(memberA, 0, [topic]);
    }
    let memberEpoch = joined.memberEpoch;
    for (let assigned = false; !assigned; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const r = await beat(memberA, memberEpoch, null);
      [memberEpoch, assigned] = [r.memberEpoch, r.assignment !== null && r.assignment.topicPartitions.length > 0];
    }
    const request = (memberId: string, epoch: number, maxWaitMs: number) => ({
      ...createShareFetchRequest(), groupId: group, memberId, shareSessionEpoch: epoch, maxWaitMs, minBytes: 1, maxBytes: 1 << 20, maxRecords: 500, batchSize: 500,
      topics: [{ topicId, partitions: [{ ...createFetchPartition(), partitionIndex: 0 }] }],
    });
    const acquired = (r: ShareFetchResponse) => r.responses.flatMap((t) => t.partitions.flatMap((p) => p.acquiredRecords.map((a) => [Number(a.firstOffset), Number(a.lastOffset), a.deliveryCount])));

    // A acquires the three records, then waits in a 3 s long poll (nothing more to acquire) when its connection closes.
    let epochA = 0;
    let first = await roundTrip(dying, shareFetchApi, 2, request(memberA, epochA++, 1000));
    for (let i = 0; i < 20 && acquired(first).length === 0; i++) first = await roundTrip(dying, shareFetchApi, 2, request(memberA, epochA++, 1000));
    assert.deepEqual(acquired(first), [[0, 2, 1]]);
    dying.send(encodeRequest(shareFetchApi, 2, request(memberA, epochA, 3000), 1_000_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await dying.close();

    // While that fetch waits, A still holds the records; once it ends they are released and B gets them, delivered
    // a second time (had the release come first, A's fetch would have taken them again: B would wait for that lock).
    let epochB = 0;
    assert.deepEqual(acquired(await roundTrip(other, shareFetchApi, 2, request(memberB, epochB++, 0))), []);
    let later = await roundTrip(other, shareFetchApi, 2, request(memberB, epochB++, 1000));
    for (let i = 0; i < 20 && acquired(later).length === 0; i++) later = await roundTrip(other, shareFetchApi, 2, request(memberB, epochB++, 1000));
    assert.deepEqual(acquired(later), [[0, 2, 2]]);
  } finally {
    await Promise.all([admin.close(), dying.close(), other.close()]);
    await broker?.close();
  }
});
