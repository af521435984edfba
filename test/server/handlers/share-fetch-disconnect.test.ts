// A share consumer dies with a long-poll ShareFetch pending (the Java share consumer may have one when it is
// killed): Kafka 4.3.1 notices the close only when that fetch ends (the socket server mutes a channel while its
// request is handled), then releases what the member held, delivered a second time to the next consumer. Every
// outcome is what the same requests got from a Kafka 4.3.1 broker (set SHARE_FETCH_REFERENCE=host:port to run
// against one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shareFetchApi } from '../../../src/protocol/generated/share-fetch.js';
import { RawClient } from '../raw-client.js';
import { encodeRequest, roundTrip } from '../broker-harness.js';
import { acquired, MEMBER_A, MEMBER_B, withShareGroup } from './share-group-harness.js';

test("a closed connection's share session is released after its fetch in flight ends, not before", async () => {
  const configs = { 'share.auto.offset.reset': 'earliest', 'share.record.lock.duration.ms': '15000' };
  await withShareGroup('sfd', configs, ['a', 'b', 'c'], async ({ host, port, fetchRequest }) => {
    const dying = await RawClient.connect(port, host);
    const other = await RawClient.connect(port, host);
    try {
      // A acquires the three records, then waits in a 3 s long poll (nothing more to acquire) when its connection closes.
      let epochA = 0;
      let first = await roundTrip(dying, shareFetchApi, 2, fetchRequest(MEMBER_A, epochA++, 1000));
      for (let i = 0; i < 20 && acquired(first).length === 0; i++) first = await roundTrip(dying, shareFetchApi, 2, fetchRequest(MEMBER_A, epochA++, 1000));
      assert.deepEqual(acquired(first), [[0, 2, 1]]);
      dying.send(encodeRequest(shareFetchApi, 2, fetchRequest(MEMBER_A, epochA, 3000), 1_000_000));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await dying.close();

      // While that fetch waits, A still holds the records; once it ends they are released and B gets them, delivered
      // a second time (had the release come first, A's fetch would have taken them again: B would wait for that lock).
      let epochB = 0;
      assert.deepEqual(acquired(await roundTrip(other, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 0))), []);
      let later = await roundTrip(other, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 1000));
      for (let i = 0; i < 20 && acquired(later).length === 0; i++) later = await roundTrip(other, shareFetchApi, 2, fetchRequest(MEMBER_B, epochB++, 1000));
      assert.deepEqual(acquired(later), [[0, 2, 2]]);
    } finally {
      await Promise.all([dying.close(), other.close()]);
    }
  });
});
