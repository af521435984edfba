// The streams group records Kafka 4.3.1 wrote for a Kafka Streams word count (test/fixtures/streams-groups/README.md):
// each decodes and encodes back to the same bytes, and replayed through the shard's load path they rebuild the group
// Kafka's kafka-streams-groups described at each point.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadXxh3 } from '../../../src/coordinator/group/consumer/xxh3.js';
import { decodeRecord, encodeRecordKey, encodeRecordValue } from '../../../src/coordinator/group/record-serde.js';
import { recordKey, type GroupRecord } from '../../../src/coordinator/group/records.js';
import { isStreamsGroupRecord } from '../../../src/coordinator/group/streams/records.js';
import type { StreamsGroup } from '../../../src/coordinator/group/streams/streams-group.js';
import type { StreamsGroupTopologyValue } from '../../../src/protocol/generated/internal/group-coordinator/streams-group-topology-value.js';
import { computeMetadataHash } from '../../../src/coordinator/group/consumer/metadata-hash.js';
import { StaticTopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import { requiredTopics } from '../../../src/coordinator/group/streams/topology.js';
import { GroupHarness } from '../group-harness.js';

before(loadXxh3);

interface Raw {
  readonly offset: number;
  readonly key: Buffer;
  readonly value: Buffer | null;
}

const RAW: Raw[] = readFileSync(join(process.cwd(), 'test', 'fixtures', 'streams-groups', 'kafka-4.3.1-s1b.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { offset: number; key: string; value: string | null })
  .map((r) => ({ offset: r.offset, key: Buffer.from(r.key, 'hex'), value: r.value === null ? null : Buffer.from(r.value, 'hex') }));

const MEMBER_A = 'wX_lQXoQR_ieCyqDPzT0NQ';
const MEMBER_B = 'iHoVe4EQTRWsq7QoHwnWAQ';

function load(upTo: number): StreamsGroup | undefined {
  const h = new GroupHarness();
  for (const r of RAW) if (r.offset <= upTo) h.shard.replay(decodeRecord(r.key, r.value)!);
  h.shard.onLoaded();
  return h.shard.streamsGroup('s1b');
}

/** A member's active tasks as kafka-streams-groups prints them ("0:[0,1]; 1:[0,1]; "). */
function active(group: StreamsGroup, memberId: string): string {
  const m = group.members.get(memberId)!;
  return [...m.assignedTasks.active].sort(([a], [b]) => (a < b ? -1 : 1)).map(([s, e]) => `${s}:[${[...e.keys()].sort().join(',')}]; `).join('');
}

test('every streams record decodes and encodes back to Kafka 4.3.1\'s bytes', () => {
  let streams = 0;
  for (const r of RAW) {
    const record = decodeRecord(r.key, r.value);
    assert.ok(record !== null, `offset ${r.offset}`);
    assert.deepEqual(encodeRecordKey(record), r.key, `key at ${r.offset}`);
    assert.deepEqual(encodeRecordValue(record), r.value, `value at ${r.offset}`);
    if (isStreamsGroupRecord(record)) streams++;
  }
  assert.equal(streams, 31);
});

test('replayed, the group is what kafka-streams-groups described on Kafka at each point', () => {
  // The first member alone, owning every task at epoch 3 (the topology validated once its internal topics existed).
  const alone = load(9)!;
  assert.deepEqual([alone.state, alone.groupEpoch, alone.assignmentEpoch, alone.validatedTopologyEpoch], ['Stable', 3, 3, 0]);
  assert.equal(active(alone, MEMBER_A), '0:[0,1,2,3]; 1:[0,1,2,3]; ');
  // Two members at epoch 4, half each (describe-2 on the reference).
  const two = RAW.find((r) => r.offset > 9 && r.key.readInt16BE(0) === 22 && r.value === null)!.offset - 1;
  const both = load(two)!;
  assert.deepEqual([both.state, both.groupEpoch, both.assignmentEpoch], ['Stable', 4, 4]);
  assert.equal(active(both, MEMBER_A), '0:[0,1]; 1:[0,1]; ');
  assert.equal(active(both, MEMBER_B), '0:[2,3]; 1:[2,3]; ');
  assert.equal(both.currentActiveTaskProcessId('0', 2), both.members.get(MEMBER_B)!.processId);
  // Both gone: Empty at group epoch 6, target epoch 5 (describe-0).
  const empty = load(Number.MAX_SAFE_INTEGER)!;
  assert.deepEqual([empty.state, empty.groupEpoch, empty.assignmentEpoch, empty.members.size, empty.targetAssignment.size], ['Empty', 6, 5, 0, 0]);
  assert.equal(empty.topology?.subtopologies.map((s) => s.subtopologyId).join(), '0,1');
});

test('compacted (last record per key), the log rebuilds the same group; deleting it tombstones every key', () => {
  const records: GroupRecord[] = RAW.map((r) => decodeRecord(r.key, r.value)!);
  const last = new Map<string, number>();
  records.forEach((r, i) => last.set(recordKey(r), i));
  const h = new GroupHarness();
  for (const [i, r] of records.entries()) if (last.get(recordKey(r)) === i && r.value !== null) h.shard.replay(r);
  const group = h.shard.streamsGroup('s1b')!;
  assert.deepEqual([group.state, group.groupEpoch, group.assignmentEpoch], ['Empty', 6, 5]);
  const deleted = h.apply(h.shard.deleteGroups(['s1b']));
  assert.deepEqual(deleted, [{ groupId: 's1b', errorCode: 0 }]);
  assert.deepEqual(h.log.filter(isStreamsGroupRecord).map((r) => r.type), ['streams-target', 'streams-group', 'streams-topology']);
  assert.equal(h.shard.streamsGroup('s1b'), undefined);
});

test('the metadata hash of the topology\'s topics is the one Kafka recorded, before and after its internal topics existed', () => {
  // The reference broker's topics (kafka-topics --describe): ids as it created them.
  const IN = { id: 'sJpSBDKBS8SsXofKN_AZcQ', name: 's1b-in', numPartitions: 4 };
  const internal = [
    { id: 'CzaP_pr3S4Wi4BMOk83QBQ', name: 's1b-words-repartition', numPartitions: 4 },
    { id: 'S2uJ9CQdS4mETjItnaMHvA', name: 's1b-counts-changelog', numPartitions: 4 },
  ];
  const records = RAW.map((r) => decodeRecord(r.key, r.value)!).filter(isStreamsGroupRecord);
  const topology = records.find((r) => r.type === 'streams-topology')!.value as StreamsGroupTopologyValue;
  const hashes = [...new Set(records.flatMap((r) => (r.type === 'streams-group' && r.value !== null ? [r.value.metadataHash] : [])))];
  assert.deepEqual(hashes, [
    computeMetadataHash(requiredTopics(topology), new StaticTopicsImage([IN])),
    computeMetadataHash(requiredTopics(topology), new StaticTopicsImage([IN, ...internal])),
  ]);
});
