// A request's acknowledgement batches of one partition are applied all or none, as Kafka 4.3.1's
// SharePartition.acknowledge rolls them back at the first it refuses: a batch past the records in flight is
// INVALID_REQUEST, one naming a record no longer acquired, or acquired by another member, INVALID_RECORD_STATE, and the batches before it in the same
// request (ShareAcknowledge or piggybacked on ShareFetch) change nothing. Every answer is what the same requests got
// from a Kafka 4.3.1 broker (set SHARE_FETCH_REFERENCE=host:port to run this file against one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { shareFetchApi, type ShareFetchResponse } from '../../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi } from '../../../src/protocol/generated/share-acknowledge.js';
import { RawClient } from '../raw-client.js';
import { roundTrip } from '../broker-harness.js';
import { acquired, MEMBER_A, MEMBER_B, withShareGroup } from './share-group-harness.js';

type Ack = [first: number, last: number, types: number[]];
const [ACCEPT, RELEASE, REJECT] = [1, 2, 3];

test("a refused acknowledgement batch rolls back the request's batches before it", async () => {
  const records = Array.from({ length: 10 }, (_, i) => `r${i}`);
  await withShareGroup('share-e2e-sar', { 'share.auto.offset.reset': 'earliest' }, records, async ({ host, port, group, topicId, fetchRequest }) => {
    const client = await RawClient.connect(port, host);
    try {
      let epoch = 0;
      let first = await roundTrip(client, shareFetchApi, 2, fetchRequest(MEMBER_A, epoch++, 1000));
      for (let i = 0; i < 20 && acquired(first).length === 0; i++) first = await roundTrip(client, shareFetchApi, 2, fetchRequest(MEMBER_A, epoch++, 1000));
      assert.deepEqual(acquired(first), [[0, 9, 1]]);
      const batches = (acks: Ack[]) => acks.map(([f, l, types]) => ({ firstOffset: BigInt(f), lastOffset: BigInt(l), acknowledgeTypes: types }));
      const acknowledge = async (acks: Ack[]) => {
        const r = await roundTrip(client, shareAcknowledgeApi, 2, {
          ...createShareAcknowledgeRequest(), groupId: group, memberId: MEMBER_A, shareSessionEpoch: epoch++,
          topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: batches(acks) }] }],
        });
        assert.equal(r.errorCode, ErrorCode.NONE);
        return r.responses[0]!.partitions[0]!.errorCode;
      };
      const seen = (r: ShareFetchResponse) => [r.errorCode, r.responses.map((t) => t.partitions.map((p) => [p.errorCode, p.acknowledgeErrorCode, acquired(r)]))];

      // Ending past the records in flight (0-9): INVALID_REQUEST, and 0-1 not accepted (accepted next, alone).
      assert.equal(await acknowledge([[0, 1, [ACCEPT]], [8, 12, [ACCEPT]]]), ErrorCode.INVALID_REQUEST);
      // Starting past them: INVALID_REQUEST, and neither 2's release nor 3's rejection applied.
      assert.equal(await acknowledge([[2, 3, [RELEASE, REJECT]], [20, 21, [ACCEPT]]]), ErrorCode.INVALID_REQUEST);
      assert.equal(await acknowledge([[0, 1, [ACCEPT]]]), ErrorCode.NONE);
      // The second batch names 2, which the first accepted: INVALID_RECORD_STATE, 2 not accepted.
      assert.equal(await acknowledge([[2, 2, [ACCEPT]], [2, 3, [ACCEPT]]]), ErrorCode.INVALID_RECORD_STATE);
      // Piggybacked on ShareFetch: the same, answered as the partition's acknowledge error code.
      const piggybacked = fetchRequest(MEMBER_A, epoch++, 0);
      piggybacked.topics[0]!.partitions[0]!.acknowledgementBatches = batches([[2, 3, [REJECT]], [4, 4, [RELEASE]], [9, 15, [ACCEPT]]]);
      assert.deepEqual(seen(await roundTrip(client, shareFetchApi, 2, piggybacked)), [ErrorCode.NONE, [[[ErrorCode.NONE, ErrorCode.INVALID_REQUEST, []]]]]);
      // Another member acquires 9 (released by the first): a batch naming it is not the first member's to
      // acknowledge (INVALID_RECORD_STATE), and the accepted 2-3 before it are rolled back.
      assert.equal(await acknowledge([[9, 9, [RELEASE]]]), ErrorCode.NONE);
      let epochB = 0;
      const b = await RawClient.connect(port, host);
      try {
        let taken = await roundTrip(b, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 1000));
        for (let i = 0; i < 20 && acquired(taken).length === 0; i++) taken = await roundTrip(b, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 1000));
        assert.deepEqual(acquired(taken), [[9, 9, 2]]);
        assert.equal(await acknowledge([[2, 3, [ACCEPT]], [9, 9, [ACCEPT]]]), ErrorCode.INVALID_RECORD_STATE);
        // Nothing of them applied: 2-8 are still the first member's, delivered once.
        assert.equal(await acknowledge([[2, 3, [ACCEPT]], [4, 8, [RELEASE]]]), ErrorCode.NONE);
        const again = await roundTrip(client, shareFetchApi, 2, fetchRequest(MEMBER_A, epoch++, 1000));
        assert.deepEqual(acquired(again), [[4, 8, 2]]);
        // Below the share-partition start offset and then past what is in flight: INVALID_REQUEST, 4-8 kept.
        assert.equal(await acknowledge([[0, 5, [ACCEPT]], [6, 10, [ACCEPT]]]), ErrorCode.INVALID_REQUEST);
        assert.equal(await acknowledge([[0, 8, [ACCEPT]]]), ErrorCode.NONE);
        const byB = await roundTrip(b, shareAcknowledgeApi, 2, {
          ...createShareAcknowledgeRequest(), groupId: group, memberId: MEMBER_B, shareSessionEpoch: epochB++,
          topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: batches([[9, 9, [ACCEPT]]]) }] }],
        });
        assert.equal(byB.responses[0]!.partitions[0]!.errorCode, ErrorCode.NONE);
      } finally {
        await b.close();
      }
      // Nothing in flight any more: a batch past the start offset is not found (INVALID_RECORD_STATE).
      assert.equal(await acknowledge([[10, 10, [ACCEPT]]]), ErrorCode.INVALID_RECORD_STATE);
    } finally {
      await client.close();
    }
  });
});
