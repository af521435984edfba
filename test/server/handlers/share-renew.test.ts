// KIP-1222's RENEW acknowledgements (ShareFetch/ShareAcknowledge v2, is_renew_ack) and the acknowledgement batches
// KafkaApis refuses, over a socket. Every outcome is what the same requests got from a Kafka 4.3.1 broker (set
// SHARE_FETCH_REFERENCE=host:port to run against one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { shareFetchApi, type ShareFetchResponse } from '../../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi } from '../../../src/protocol/generated/share-acknowledge.js';
import { RawClient } from '../raw-client.js';
import { roundTrip } from '../broker-harness.js';
import { acquired, MEMBER_A, withShareGroup } from './share-group-harness.js';

type Ack = [first: number, last: number, types: number[]];
const { ACCEPT, RENEW } = { ACCEPT: 1, RENEW: 4 };

test('RENEW is taken only in a v2 request marked is_renew_ack; a renewing ShareFetch fetches nothing and must zero its fetch fields', async () => {
  await withShareGroup('srn', { 'share.auto.offset.reset': 'earliest' }, ['a', 'b', 'c'], async ({ host, port, group, topicId, fetchRequest }) => {
    const client = await RawClient.connect(port, host);
    try {
      let epoch = 0;
      let first = await roundTrip(client, shareFetchApi, 2, fetchRequest(MEMBER_A, epoch++, 1000));
      for (let i = 0; i < 20 && acquired(first).length === 0; i++) first = await roundTrip(client, shareFetchApi, 2, fetchRequest(MEMBER_A, epoch++, 1000));
      assert.deepEqual(acquired(first), [[0, 2, 1]]);
      const batches = (acks: Ack[]) => acks.map(([f, l, types]) => ({ firstOffset: BigInt(f), lastOffset: BigInt(l), acknowledgeTypes: types }));
      const acknowledge = async (version: number, isRenewAck: boolean, acks: Ack[]) => {
        const r = await roundTrip(client, shareAcknowledgeApi, version, {
          ...createShareAcknowledgeRequest(), groupId: group, memberId: MEMBER_A, shareSessionEpoch: epoch++, isRenewAck,
          topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: batches(acks) }] }],
        });
        assert.equal(r.errorCode, ErrorCode.NONE);
        return r.responses[0]!.partitions[0]!.errorCode;
      };
      const seen = (r: ShareFetchResponse) => [r.errorCode, r.errorMessage, r.responses.map((t) => t.partitions.map((p) => [p.partitionIndex, p.errorCode, p.acknowledgeErrorCode, p.acquiredRecords.length]))];

      // RENEW without is_renew_ack, or in v1 (whose types stop at REJECT): the partition's batches are INVALID_REQUEST.
      assert.equal(await acknowledge(2, false, [[0, 2, [RENEW]]]), ErrorCode.INVALID_REQUEST);
      assert.equal(await acknowledge(1, false, [[0, 2, [RENEW]]]), ErrorCode.INVALID_REQUEST);
      // Batches out of order, first past last, types not one per offset: INVALID_REQUEST, nothing acknowledged.
      assert.equal(await acknowledge(2, false, [[1, 2, [ACCEPT]], [0, 0, [ACCEPT]]]), ErrorCode.INVALID_REQUEST);
      assert.equal(await acknowledge(2, false, [[2, 1, [ACCEPT]]]), ErrorCode.INVALID_REQUEST);
      assert.equal(await acknowledge(2, false, [[0, 2, [ACCEPT, ACCEPT]]]), ErrorCode.INVALID_REQUEST);
      // A renewing ShareFetch with fetch settings: refused whole (no message), its session epoch not used.
      const refused = await roundTrip(client, shareFetchApi, 2, fetchRequest(MEMBER_A, epoch, 500, { isRenewAck: true }));
      assert.deepEqual(seen(refused), [ErrorCode.INVALID_REQUEST, null, []]);
      // Renewed by ShareFetch (nothing fetched: only the acknowledged partition answers), then by ShareAcknowledge.
      const renewing = fetchRequest(MEMBER_A, epoch++, 0, { isRenewAck: true, maxBytes: 0, minBytes: 0, maxRecords: 0 });
      renewing.topics[0]!.partitions[0]!.acknowledgementBatches = batches([[0, 2, [RENEW]]]);
      assert.deepEqual(seen(await roundTrip(client, shareFetchApi, 2, renewing)), [ErrorCode.NONE, null, [[[0, 0, 0, 0]]]]);
      assert.equal(await acknowledge(2, true, [[0, 1, [RENEW]]]), ErrorCode.NONE);
      // Still acquired by the member: accepted.
      assert.equal(await acknowledge(2, false, [[0, 2, [ACCEPT]]]), ErrorCode.NONE);
    } finally {
      await client.close();
    }
  });
});
