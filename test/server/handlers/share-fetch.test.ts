// ShareFetch and ShareAcknowledge over a socket: share sessions and their epochs, the member id check, a share
// partition served only once the group has initialized it, acquisition from the start share.auto.offset.reset=latest gives, piggybacked acknowledgements, a standalone acknowledgement
// and the closing epoch. Every outcome is what the same requests got from a Kafka 4.3.1 broker (compat-tests/
// reference; set SHARE_FETCH_REFERENCE=host:port to run this file against one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { createFetchPartition, createShareFetchRequest, shareFetchApi, type ShareFetchResponse } from '../../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi } from '../../../src/protocol/generated/share-acknowledge.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { batch, produce, values } from '../../broker/data-harness.js';

type Ack = { first: number; last: number; types: number[] };

test('share sessions, epochs, acquisition and acknowledgements, as Kafka 4.3.1 answers them', async () => {
  const reference = process.env['SHARE_FETCH_REFERENCE'];
  const broker = reference === undefined ? await startTestBroker({ 'node.id': '1', 'group.share.assignment.interval.ms': '0' }) : undefined;
  const [host, port] = reference === undefined ? ['127.0.0.1', broker!.port] : [reference.split(':')[0]!, Number(reference.split(':')[1])];
  const client = await RawClient.connect(port, host);
  // A new topic each run, so that the file runs again against the same reference broker.
  const topic = `sf-${Date.now()}`;
  try {
    const created = await roundTrip(client, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: topic, numPartitions: 1, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    assert.equal(created.topics[0]!.errorCode, ErrorCode.NONE);
    const member = 'AAAAAAAAAAAAAAAAAAAAAQ';
    const shareFetch = (epoch: number, acks: Ack[] = [], memberId: string = member, maxWaitMs = 0) =>
      roundTrip(client, shareFetchApi, 2, {
        ...createShareFetchRequest(), groupId: 'sfg', memberId, shareSessionEpoch: epoch, maxWaitMs, minBytes: 1, maxBytes: 1 << 20, maxRecords: 500, batchSize: 500,
        topics: [{ topicId, partitions: [{ ...createFetchPartition(), partitionIndex: 0, acknowledgementBatches: acks.map((a) => ({ firstOffset: BigInt(a.first), lastOffset: BigInt(a.last), acknowledgeTypes: a.types })) }] }],
      });
    const acknowledge = (epoch: number, acks: Ack[]) =>
      roundTrip(client, shareAcknowledgeApi, 2, {
        ...createShareAcknowledgeRequest(), groupId: 'sfg', memberId: member, shareSessionEpoch: epoch,
        topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: acks.map((a) => ({ firstOffset: BigInt(a.first), lastOffset: BigInt(a.last), acknowledgeTypes: a.types })) }] }],
      });
    const seen = (r: ShareFetchResponse) => [r.errorCode, r.responses.map((t) => t.partitions.map((p) => [p.partitionIndex, p.errorCode, p.acknowledgeErrorCode, p.acquiredRecords.map((a) => [Number(a.firstOffset), Number(a.lastOffset), a.deliveryCount])]))];

    assert.equal((await acknowledge(0, [])).errorCode, ErrorCode.INVALID_SHARE_SESSION_EPOCH);
    assert.equal((await shareFetch(1)).errorCode, ErrorCode.SHARE_SESSION_NOT_FOUND);
    const noMember = await shareFetch(0, [], '');
    assert.deepEqual([noMember.errorCode, noMember.errorMessage], [ErrorCode.INVALID_REQUEST, null]);
    assert.equal((await shareFetch(0, [{ first: 0, last: 0, types: [1] }])).errorCode, ErrorCode.INVALID_REQUEST);

    // A record before the group starts: latest puts the share partition's start after it.
    await produce(client, topic, 0, batch(values('before')));
    // Until the group has initialized the share partition (a member subscribed), it is not served.
    assert.deepEqual(seen(await shareFetch(0, [], member, 1000)), [ErrorCode.NONE, [[[0, ErrorCode.UNKNOWN_SERVER_ERROR, 0, []]]]]);
    const beat = (memberEpoch: number, subscribedTopicNames: string[] | null) =>
      roundTrip(client, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: 'sfg', memberId: member, memberEpoch, subscribedTopicNames });
    let memberEpoch = (await beat(0, [topic])).memberEpoch;
    for (let assigned = false; !assigned; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const r = await beat(memberEpoch, null);
      [memberEpoch, assigned] = [r.memberEpoch, r.assignment !== null && r.assignment.topicPartitions.length > 0];
    }
    // The opening fetch answers its partition; the share partition starts at the high watermark (latest): 1.
    const opened = await shareFetch(0, [], member, 1000);
    assert.deepEqual(seen(opened), [ErrorCode.NONE, [[[0, 0, 0, []]]]]);
    assert.equal(opened.acquisitionLockTimeoutMs, 30_000);
    await produce(client, topic, 0, batch(values('a', 'b', 'c')));
    // A later fetch names a partition only when it has records, an error or acknowledgements.
    let epoch = 1;
    let acquired = await shareFetch(epoch++, [], member, 1000);
    for (let i = 0; i < 20 && acquired.responses.length === 0; i++) acquired = await shareFetch(epoch++, [], member, 1000);
    assert.deepEqual(seen(acquired), [ErrorCode.NONE, [[[0, 0, 0, [[1, 3, 1]]]]]]);
    assert.equal((await shareFetch(epoch - 1)).errorCode, ErrorCode.INVALID_SHARE_SESSION_EPOCH);
    const ackCode = async (acks: Ack[]) => {
      const r = await acknowledge(epoch++, acks);
      assert.deepEqual([r.errorCode, r.acquisitionLockTimeoutMs], [ErrorCode.NONE, 30_000]);
      return r.responses[0]!.partitions[0]!.errorCode;
    };
    // b accepted; accepted again, it is no longer acquired.
    assert.equal(await ackCode([{ first: 2, last: 2, types: [1] }]), ErrorCode.NONE);
    assert.equal(await ackCode([{ first: 2, last: 2, types: [1] }]), ErrorCode.INVALID_RECORD_STATE);
    // Piggybacked: a released, c accepted; the next fetch acquires a again, delivered a second time.
    const piggybacked = [{ first: 1, last: 1, types: [2] }, { first: 3, last: 3, types: [1] }];
    assert.deepEqual(seen(await shareFetch(epoch++, piggybacked)), [ErrorCode.NONE, [[[0, 0, 0, []]]]]);
    assert.deepEqual(seen(await shareFetch(epoch++, [], member, 1000)), [ErrorCode.NONE, [[[0, 0, 0, [[1, 1, 2]]]]]]);
    assert.equal(await ackCode([{ first: 1, last: 1, types: [3] }]), ErrorCode.NONE);
    // Below the share-partition start offset now: nothing to change, and not refused.
    assert.equal(await ackCode([{ first: 1, last: 1, types: [1] }]), ErrorCode.NONE);
    assert.equal((await acknowledge(-1, [])).errorCode, ErrorCode.NONE);
    assert.equal((await shareFetch(epoch)).errorCode, ErrorCode.SHARE_SESSION_NOT_FOUND);
  } finally {
    await client.close();
    await broker?.close();
  }
});

