// How ShareFetch cuts what it acquires (Kafka 4.3.1's SharePartition.acquire, batch_optimized): whole log batches up
// to the one holding the max_records-th record, new records' in-flight batches cut at log-batch boundaries once
// batch_size records are reached, one acquired range per in-flight batch. Every outcome is what the same requests
// got from a Kafka 4.3.1 broker (set SHARE_FETCH_REFERENCE=host:port to run against one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shareFetchApi } from '../../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi } from '../../../src/protocol/generated/share-acknowledge.js';
import { RawClient } from '../raw-client.js';
import { roundTrip } from '../broker-harness.js';
import { batch, produce, values } from '../../broker/data-harness.js';
import { acquired, MEMBER_A, MEMBER_B, withShareGroup } from './share-group-harness.js';

test('max_records takes whole log batches, batch_size cuts the acquired ranges at log-batch boundaries', async () => {
  await withShareGroup('sfb', { 'share.auto.offset.reset': 'earliest' }, [], async ({ host, port, admin, group, topic, topicId, fetchRequest }) => {
    // Four log batches of three records: 0-2, 3-5, 6-8, 9-11.
    for (let b = 0; b < 4; b++) await produce(admin, topic, 0, batch(values('x', 'y', 'z')));
    const a = await RawClient.connect(port, host);
    const b = await RawClient.connect(port, host);
    try {
      let epochA = 0;
      let epochB = 0;
      let first = await roundTrip(a, shareFetchApi, 2, fetchRequest(MEMBER_A, epochA++, 1000, { maxRecords: 7, batchSize: 5 }));
      for (let i = 0; i < 20 && acquired(first).length === 0; i++) first = await roundTrip(a, shareFetchApi, 2, fetchRequest(MEMBER_A, epochA++, 1000, { maxRecords: 7, batchSize: 5 }));
      // 7 records wanted: up to the end of the batch holding offset 6; cut where 5 were reached.
      assert.deepEqual(acquired(first), [[0, 5, 1], [6, 8, 1]]);
      assert.deepEqual(acquired(await roundTrip(b, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 1000, { batchSize: 2 }))), [[9, 11, 1]]);
      // Part of the first in-flight batch released: the next fetch takes just those records again.
      const released = await roundTrip(a, shareAcknowledgeApi, 2, {
        ...createShareAcknowledgeRequest(), groupId: group, memberId: MEMBER_A, shareSessionEpoch: epochA++,
        topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 1n, lastOffset: 2n, acknowledgeTypes: [2] }, { firstOffset: 4n, lastOffset: 4n, acknowledgeTypes: [2] }] }] }],
      });
      assert.equal(released.responses[0]!.partitions[0]!.errorCode, 0);
      assert.deepEqual(acquired(await roundTrip(b, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 1000, { maxRecords: 1 }))), [[1, 2, 2], [4, 4, 2]]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
