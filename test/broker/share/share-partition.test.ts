import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { AcknowledgeType, RecordState, SharePartition } from '../../../src/broker/share/share-partition.js';

const limits = { lockDurationMs: 30_000, deliveryCountLimit: 3, maxInFlightRecords: 100, renewAcknowledgeEnabled: true };
const { ACCEPT, RELEASE, REJECT, GAP } = AcknowledgeType;
/** Three log batches: 0-4, 5-9, 10-14. */
const batches = [{ first: 0, last: 4 }, { first: 5, last: 9 }, { first: 10, last: 14 }];

test('acquisition takes whole batches up to max records, each locked to its member', () => {
  const sp = new SharePartition(0);
  assert.deepEqual(sp.acquire('a', batches, 7, limits, 1000), [{ firstOffset: 0, lastOffset: 9, deliveryCount: 1 }]);
  assert.equal(sp.endOffset, 10);
  assert.deepEqual(sp.stateOf(3), { state: RecordState.ACQUIRED, deliveryCount: 1, memberId: 'a' });
  // Another member reading the same batches gets only what is not acquired.
  assert.deepEqual(sp.acquire('b', batches, 100, limits, 1000), [{ firstOffset: 10, lastOffset: 14, deliveryCount: 1 }]);
  assert.deepEqual(sp.acquire('c', batches, 100, limits, 1000), []);
});

test('the SPSO starts part-way into a batch and advances over acknowledged and archived records', () => {
  const sp = new SharePartition(2);
  assert.deepEqual(sp.acquire('a', batches.slice(0, 1), 100, limits, 0), [{ firstOffset: 2, lastOffset: 4, deliveryCount: 1 }]);
  assert.equal(sp.acknowledge('a', 2, 3, [ACCEPT, REJECT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 4);
  assert.equal(sp.acknowledge('a', 4, 4, [GAP], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 5);
  assert.equal(sp.endOffset, 5);
});

test('a partial acknowledgement splits a batch into per-record states; a released record is redelivered with its count', () => {
  const sp = new SharePartition(0);
  sp.acquire('a', batches.slice(0, 1), 100, limits, 0);
  assert.equal(sp.acknowledge('a', 0, 4, [ACCEPT, RELEASE, ACCEPT, RELEASE, REJECT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 1);
  assert.equal(sp.stateOf(1)!.state, RecordState.AVAILABLE);
  assert.equal(sp.stateOf(2)!.state, RecordState.ACKNOWLEDGED);
  assert.equal(sp.stateOf(4)!.state, RecordState.ARCHIVED);
  assert.equal(sp.nextFetchOffset(limits, 0), 1);
  assert.deepEqual(sp.acquire('b', batches.slice(0, 1), 100, limits, 0), [
    { firstOffset: 1, lastOffset: 1, deliveryCount: 2 },
    { firstOffset: 3, lastOffset: 3, deliveryCount: 2 },
  ]);
});

test('acknowledgements of records not acquired by the member are INVALID_RECORD_STATE and change nothing', () => {
  const sp = new SharePartition(0);
  sp.acquire('a', batches.slice(0, 1), 100, limits, 0);
  assert.equal(sp.acknowledge('b', 0, 0, [ACCEPT], limits, 0), ErrorCode.INVALID_RECORD_STATE);
  // Past the last in-flight batch it reaches: INVALID_REQUEST (Kafka's "last offset in request is past acquired records").
  assert.equal(sp.acknowledge('a', 3, 6, [ACCEPT], limits, 0), ErrorCode.INVALID_REQUEST);
  assert.equal(sp.acknowledge('a', 0, 1, [ACCEPT, ACCEPT, ACCEPT], limits, 0), ErrorCode.INVALID_REQUEST);
  assert.equal(sp.acknowledge('a', 1, 1, [ACCEPT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.acknowledge('a', 1, 1, [REJECT], limits, 0), ErrorCode.INVALID_RECORD_STATE);
  assert.equal(sp.acknowledge('a', 0, 4, [ACCEPT, ACCEPT, ACCEPT, ACCEPT, ACCEPT], limits, 0), ErrorCode.INVALID_RECORD_STATE);
  assert.equal(sp.acknowledge('a', 0, 0, [ACCEPT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.acknowledge('a', 2, 4, [ACCEPT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 5);
  // Below the SPSO: nothing left to change, and not refused.
  assert.equal(sp.acknowledge('a', 0, 0, [REJECT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.acknowledge('a', 3, 5, [ACCEPT], limits, 0), ErrorCode.INVALID_RECORD_STATE);
});

test('a request\'s acknowledgement batches apply all or none: a refused batch rolls back the ones before it', () => {
  const sp = new SharePartition(0);
  assert.deepEqual(sp.acquire('a', batches.slice(0, 2), 100, limits, 0), [{ firstOffset: 0, lastOffset: 9, deliveryCount: 1 }]);
  assert.deepEqual(sp.acquire('b', batches, 100, limits, 0), [{ firstOffset: 10, lastOffset: 14, deliveryCount: 1 }]);
  const ack = (first: number, last: number, ...types: number[]) => ({ firstOffset: first, lastOffset: last, types });
  const unchanged = () => {
    assert.equal(sp.startOffset, 0);
    for (let o = 0; o < 10; o++) assert.deepEqual(sp.stateOf(o), { state: RecordState.ACQUIRED, deliveryCount: 1, memberId: 'a' });
    assert.deepEqual(sp.takeStateChanges().batches, []);
  };
  // A later batch naming offsets another member acquired: INVALID_RECORD_STATE, the ACCEPT of 0-4 undone.
  assert.equal(sp.acknowledgeAll('a', [ack(0, 4, ACCEPT), ack(8, 12, ACCEPT)], limits, 0), ErrorCode.INVALID_RECORD_STATE);
  unchanged();
  // Past the records in flight (0-14): INVALID_REQUEST, the per-offset RELEASE/REJECT of 2-3 undone (the batch stays whole).
  assert.equal(sp.acknowledgeAll('a', [ack(2, 3, RELEASE, REJECT), ack(15, 16, ACCEPT)], limits, 0), ErrorCode.INVALID_REQUEST);
  assert.equal(sp.acknowledgeAll('a', [ack(2, 3, RELEASE, REJECT), ack(9, 20, ACCEPT)], limits, 0), ErrorCode.INVALID_REQUEST);
  unchanged();
  // A bad type in a later batch: INVALID_REQUEST; two batches naming the same offset: the second finds it done.
  assert.equal(sp.acknowledgeAll('a', [ack(0, 0, ACCEPT), ack(1, 1, 9)], limits, 0), ErrorCode.INVALID_REQUEST);
  assert.equal(sp.acknowledgeAll('a', [ack(0, 1, ACCEPT), ack(1, 2, REJECT)], limits, 0), ErrorCode.INVALID_RECORD_STATE);
  unchanged();
  // RENEW with share.renew.acknowledge.enable false, after an ACCEPT: both refused.
  assert.equal(sp.acknowledgeAll('a', [ack(0, 0, ACCEPT), ack(1, 1, AcknowledgeType.RENEW)], { ...limits, renewAcknowledgeEnabled: false }, 0), ErrorCode.INVALID_RECORD_STATE);
  unchanged();
  // All valid: every batch applies, and the SPSO moves once over what they completed.
  assert.equal(sp.acknowledgeAll('a', [ack(0, 1, ACCEPT), ack(2, 3, REJECT, RELEASE)], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 3);
  assert.deepEqual(sp.takeStateChanges(), {
    batches: [{ firstOffset: 0, lastOffset: 1, deliveryState: RecordState.ACKNOWLEDGED, deliveryCount: 1 }, { firstOffset: 2, lastOffset: 2, deliveryState: RecordState.ARCHIVED, deliveryCount: 1 }, { firstOffset: 3, lastOffset: 3, deliveryState: RecordState.AVAILABLE, deliveryCount: 1 }],
    startOffset: 0,
    deliveryCompleteCount: 3,
  });
});

test('an acknowledgement batch is checked against the in-flight batches as Kafka finds them', () => {
  const sp = new SharePartition(0);
  sp.acquire('a', batches.slice(0, 1), 100, limits, 0);
  // Starting past the last in-flight record: INVALID_REQUEST ("first offset in request is past acquired records").
  assert.equal(sp.acknowledge('a', 5, 6, [ACCEPT], limits, 0), ErrorCode.INVALID_REQUEST);
  assert.equal(sp.acknowledge('a', 0, 4, [ACCEPT], limits, 0), ErrorCode.NONE);
  // Nothing in flight any more: the batch is not found (INVALID_RECORD_STATE), below the SPSO it is passed over.
  assert.equal(sp.acknowledge('a', 5, 6, [ACCEPT], limits, 0), ErrorCode.INVALID_RECORD_STATE);
  assert.equal(sp.acknowledge('a', 0, 4, [ACCEPT], limits, 0), ErrorCode.NONE);
  // Starting below the SPSO and reaching in-flight records: checked from the SPSO on.
  sp.acquire('a', batches, 100, limits, 0);
  assert.equal(sp.acknowledge('a', 3, 7, [ACCEPT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 8);
  assert.equal(sp.acknowledge('b', 6, 8, [ACCEPT], limits, 0), ErrorCode.INVALID_RECORD_STATE);
});

test('a lock expires on the clock: its records go to the next member, and an acknowledgement after expiry fails', () => {
  const sp = new SharePartition(0);
  sp.acquire('a', batches.slice(0, 1), 100, limits, 1000);
  assert.deepEqual(sp.acquire('b', batches.slice(0, 1), 100, limits, 30_999), []);
  assert.deepEqual(sp.acquire('b', batches.slice(0, 1), 100, limits, 31_000), [{ firstOffset: 0, lastOffset: 4, deliveryCount: 2 }]);
  assert.equal(sp.acknowledge('a', 0, 4, [ACCEPT], limits, 31_000), ErrorCode.INVALID_RECORD_STATE);
  assert.equal(sp.acknowledge('b', 0, 4, [ACCEPT], limits, 31_000), ErrorCode.NONE);
  assert.equal(sp.startOffset, 5);
});

test('after delivery.count.limit deliveries a released or expired record is archived and the SPSO passes it', () => {
  const sp = new SharePartition(0);
  const one = [{ first: 0, last: 0 }];
  let now = 0;
  for (let delivery = 1; delivery <= 3; delivery++) {
    assert.deepEqual(sp.acquire('a', one, 100, limits, now), [{ firstOffset: 0, lastOffset: 0, deliveryCount: delivery }]);
    if (delivery < 3) assert.equal(sp.acknowledge('a', 0, 0, [RELEASE], limits, now), ErrorCode.NONE);
    else now += limits.lockDurationMs;
  }
  assert.deepEqual(sp.acquire('a', one, 100, limits, now), []);
  assert.equal(sp.stateOf(0), undefined);
  assert.equal(sp.startOffset, 1);
});

test('no new records are acquired while max.record.locks are in flight; redeliveries still are', () => {
  const sp = new SharePartition(0);
  const small = { ...limits, maxInFlightRecords: 10 };
  assert.deepEqual(sp.acquire('a', batches, 100, small, 0), [{ firstOffset: 0, lastOffset: 9, deliveryCount: 1 }]);
  assert.deepEqual(sp.acquire('b', batches, 100, small, 0), []);
  assert.equal(sp.acknowledge('a', 5, 9, [RELEASE], small, 0), ErrorCode.NONE);
  assert.deepEqual(sp.acquire('b', batches, 100, small, 0), [{ firstOffset: 5, lastOffset: 9, deliveryCount: 2 }]);
  assert.equal(sp.acknowledge('a', 0, 4, [ACCEPT], small, 0), ErrorCode.NONE);
  assert.deepEqual(sp.acquire('c', batches, 100, small, 0), [{ firstOffset: 10, lastOffset: 14, deliveryCount: 1 }]);
});

test("a member's release returns only its own records", () => {
  const sp = new SharePartition(0);
  sp.acquire('a', batches.slice(0, 1), 100, limits, 0);
  sp.acquire('b', batches.slice(1, 2), 100, limits, 0);
  sp.releaseMember('a', limits, 0);
  assert.equal(sp.stateOf(0)!.state, RecordState.AVAILABLE);
  assert.equal(sp.stateOf(5)!.memberId, 'b');
  assert.equal(sp.nextFetchOffset(limits, 0), 0);
});

test('the log start moving past the SPSO moves it there, dropping what was in flight below', () => {
  const sp = new SharePartition(0);
  sp.acquire('a', batches.slice(0, 2), 100, limits, 0);
  sp.moveStartTo(7);
  assert.deepEqual([sp.startOffset, sp.endOffset, sp.stateOf(4), sp.stateOf(7)!.state], [7, 10, undefined, RecordState.ACQUIRED]);
  assert.equal(sp.acknowledge('a', 7, 9, [ACCEPT], limits, 0), ErrorCode.NONE);
  assert.equal(sp.startOffset, 10);
  sp.moveStartTo(20);
  assert.deepEqual([sp.startOffset, sp.endOffset, sp.nextFetchOffset(limits, 0)], [20, 20, 20]);
});

/** Kafka's default group.share.delivery.count.limit: redelivery is throttled from the 3rd delivery on. */
const limits5 = { ...limits, deliveryCountLimit: 5 };
const AVAILABLE = RecordState.AVAILABLE;
const ranges = (acquired: { firstOffset: number; lastOffset: number; deliveryCount: number }[]) => acquired.map((a) => [a.firstOffset, a.lastOffset, a.deliveryCount]);

test('throttled redelivery: a batch delivered ceil(limit / 2) times comes back in halves, then record by record, the last delivery alone', () => {
  // Ten records in one batch, each delivered three times already (threshold max(2, ceil(5 / 2)) = 3).
  const sp = SharePartition.restore(0, [{ firstOffset: 0, lastOffset: 9, deliveryState: AVAILABLE, deliveryCount: 3 }]);
  const read = [{ first: 0, last: 9 }];
  assert.deepEqual(ranges(sp.acquire('a', read, 100, limits5, 0)), [[0, 4, 4]]); // 10 >> (3 - 3 + 1)
  assert.deepEqual(ranges(sp.acquire('b', read, 100, limits5, 0)), [[5, 9, 4]]);
  // All locks expire: every record now has had 4 of its 5 deliveries; each is delivered alone.
  assert.deepEqual(ranges(sp.acquire('a', read, 100, limits5, 30_000)), [[0, 0, 5]]);
  assert.deepEqual(ranges(sp.acquire('b', read, 100, limits5, 30_000)), [[1, 1, 5]]);
  // A poison record rejected on its last delivery does not cost the others theirs.
  assert.equal(sp.acknowledge('a', 0, 0, [REJECT], limits5, 30_000), ErrorCode.NONE);
  assert.deepEqual(ranges(sp.acquire('a', read, 100, limits5, 30_000)), [[2, 2, 5]]);
  assert.equal(sp.startOffset, 1);
});

test('throttled redelivery: nothing is acquired after a throttled batch, and a throttled batch waits when records were already acquired', () => {
  const read = [{ first: 0, last: 4 }, { first: 5, last: 9 }, { first: 10, last: 14 }];
  // 0-4 delivered once, 5-9 three times, 10-14 never read.
  const sp = SharePartition.restore(0, [
    { firstOffset: 0, lastOffset: 4, deliveryState: AVAILABLE, deliveryCount: 1 },
    { firstOffset: 5, lastOffset: 9, deliveryState: AVAILABLE, deliveryCount: 3 },
  ]);
  assert.deepEqual(ranges(sp.acquire('a', read, 100, limits5, 0)), [[0, 4, 2]]);
  assert.deepEqual(ranges(sp.acquire('a', read.slice(1), 100, limits5, 0)), [[5, 6, 4]]); // 5 >> 1; no new records
  assert.equal(sp.endOffset, 10);
  assert.deepEqual(ranges(sp.acquire('a', read.slice(1), 100, limits5, 0)), [[7, 8, 4]]);
  // Under the threshold nothing is throttled: the limit of 3 makes it 2, so a record delivered once is not.
  const low = SharePartition.restore(0, [{ firstOffset: 0, lastOffset: 9, deliveryState: AVAILABLE, deliveryCount: 1 }]);
  assert.deepEqual(ranges(low.acquire('a', [{ first: 0, last: 9 }], 100, limits, 0)), [[0, 9, 2]]);
  // With a limit of 3 (threshold 2) a record delivered twice is on its last delivery: it goes alone.
  const three = SharePartition.restore(0, [{ firstOffset: 0, lastOffset: 9, deliveryState: AVAILABLE, deliveryCount: 2 }]);
  assert.deepEqual(ranges(three.acquire('a', [{ first: 0, last: 9 }], 100, limits, 0)), [[0, 0, 3]]);
});

test('record_limit acquires exactly max_records: new records stay one in-flight batch with the rest AVAILABLE, never delivered', () => {
  const read = [{ first: 0, last: 4 }, { first: 5, last: 9 }];
  const sp = new SharePartition(0);
  assert.deepEqual(ranges(sp.acquire('a', read, 3, limits, 0, { recordLimit: true, batchSize: 2 })), [[0, 2, 1]]);
  assert.equal(sp.endOffset, 5); // the whole log batch 0-4 is in flight
  assert.deepEqual(sp.stateOf(3), { state: AVAILABLE, deliveryCount: 0, memberId: null });
  assert.equal(sp.nextFetchOffset(limits, 0), 3);
  // The next fetch reads from 3: 3-4 of the in-flight batch, then one new record of 5-9.
  assert.deepEqual(ranges(sp.acquire('b', read, 3, limits, 0, { recordLimit: true })), [[3, 4, 1], [5, 5, 1]]);
  assert.equal(sp.endOffset, 10);
  // batch_optimized on the same read takes whole batches past max_records.
  const optimized = new SharePartition(0);
  assert.deepEqual(ranges(optimized.acquire('a', read, 3, limits, 0)), [[0, 4, 1]]);
});

test('record_limit takes an in-flight batch larger than what is left record by record, up to the count', () => {
  const sp = SharePartition.restore(0, [{ firstOffset: 0, lastOffset: 9, deliveryState: AVAILABLE, deliveryCount: 1 }]);
  assert.deepEqual(ranges(sp.acquire('a', [{ first: 0, last: 9 }], 4, limits5, 0, { recordLimit: true })), [[0, 3, 2]]);
  assert.deepEqual(ranges(sp.acquire('b', [{ first: 0, last: 9 }], 10, limits5, 0, { recordLimit: true })), [[4, 9, 2]]);
});
