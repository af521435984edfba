// The records Kafka 4.3.1 wrote for a group upgraded online and downgraded again (test/fixtures/consumer-groups,
// "mixed"): gregor reads every one back to its bytes, replays them to the groups Kafka had, and writes the
// conversions' records to the same bytes from the same state (ClassicMemberMetadata, GroupMetadata of the downgrade).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { classicGroupFromConsumer, consumerGroupFromClassic } from '../../../src/coordinator/group/consumer/migration.js';
import { StaticTopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import type { GroupRecord } from '../../../src/coordinator/group/records.js';
import { GroupHarness } from '../group-harness.js';
import { kafkaRecords } from './kafka-records.js';

before(loadXxh3);

const IMAGE = new StaticTopicsImage([{ id: '0kuzlVRPQxm8u7nqDN8EBg', name: 't', numPartitions: 4 }]);
const records = kafkaRecords('mixed');
const decoded = records.map((r) => decodeRecord(r.key, r.value)!);

/** A shard (over topic t) with Kafka's records up to and including `offset` replayed. */
function loadedUpTo(offset: number): GroupHarness {
  const h = new GroupHarness({}, { topics: () => IMAGE, assignors: ['uniform', 'range'], maxSize: 100, settings: () => ({ sessionTimeoutMs: 45000, heartbeatIntervalMs: 5000, assignmentIntervalMs: 1000 }) });
  for (const record of decoded.slice(0, offset + 1)) h.shard.replay(record);
  return h;
}

function hex(list: readonly GroupRecord[]): [string, string | null][] {
  return list.map((r) => [encodeRecordKey(r).toString('hex'), encodeRecordValue(r)?.toString('hex') ?? null]);
}

const kafkaHex = (from: number, to: number): [string, string | null][] =>
  records.slice(from, to + 1).map((r) => [r.key.toString('hex'), r.value?.toString('hex') ?? null]);

test("every record of Kafka's mixed group decodes and re-encodes to its bytes", () => {
  for (const [i, record] of decoded.entries()) {
    assert.equal(encodeRecordKey(record).toString('hex'), records[i]!.key.toString('hex'), `key @${i}`);
    assert.equal(encodeRecordValue(record)?.toString('hex') ?? null, records[i]!.value?.toString('hex') ?? null, `value @${i}`);
  }
});

test("replayed, Kafka's records give the groups Kafka had: upgraded at 2-7, mixed, downgraded at 28-37", () => {
  const upgraded = loadedUpTo(7).shard.consumerGroup('mixed')!;
  assert.equal(upgraded.numClassicProtocolMembers, 1);
  assert.equal(upgraded.groupEpoch, 1);
  const mixed = loadedUpTo(27).shard.consumerGroup('mixed')!;
  assert.deepEqual([...mixed.members.values()].map((m) => m.classicMemberMetadata === null).sort(), [false, true]);
  const h = loadedUpTo(37);
  assert.equal(h.shard.consumerGroup('mixed'), undefined);
  assert.equal(h.shard.group('mixed')!.members.size, 1);
  assert.equal(loadedUpTo(records.length - 1).shard.groupState('mixed'), 'Empty');
});

test("gregor's upgrade of Kafka's classic group writes Kafka's records, byte for byte", () => {
  const classic = loadedUpTo(1).shard.group('mixed')!;
  // The member joined live with two protocols; a GroupMetadata record keeps the chosen one's subscription only.
  const joined = decoded[3]!.type === 'consumer-member' ? decoded[3]!.value!.classicMemberMetadata!.supportedProtocols : [];
  for (const member of classic.members.values()) member.protocols = joined;
  assert.deepEqual(hex(consumerGroupFromClassic(classic, IMAGE).records), kafkaHex(2, 7));
});

test("gregor's downgrade of Kafka's mixed group, its consumer member leaving, writes Kafka's records, byte for byte", () => {
  const group = loadedUpTo(27).shard.consumerGroup('mixed')!;
  const leaving = [...group.members.values()].find((m) => m.classicMemberMetadata === null)!;
  // Kafka's GroupMetadata carries the time of the downgrade: the same time here.
  const kafkaTime = Number(decoded[37]!.type === 'group' && decoded[37]!.value !== null ? decoded[37]!.value.currentStateTimestamp : -1n);
  const downgraded = classicGroupFromConsumer(group, new Set([leaving.memberId]), IMAGE, kafkaTime);
  assert.deepEqual(hex(downgraded.records), kafkaHex(28, 37));
});
