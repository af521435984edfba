// The controller's election over one partition record (PartitionChangeBuilder's rules): ISR first in replica
// order, the ELR below min.insync.replicas, unclean as the last resort, leaderless otherwise, and the epochs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partitionChange, type Election } from '../../src/cluster/partition-change.js';
import type { PartitionRecord } from '../../src/cluster/layout.js';

const record = (r: Partial<PartitionRecord>): PartitionRecord => ({ replicas: [1, 2, 3], leader: 1, leaderEpoch: 4, isr: [1, 2, 3], partitionEpoch: 7, ...r });

function change(r: PartitionRecord, live: number[], opts: { minIsr?: number; unclean?: boolean; election?: Election } = {}) {
  const ok = (id: number) => live.includes(id);
  return partitionChange({ record: r, acceptable: ok, inSync: ok, minInsyncReplicas: opts.minIsr ?? 2, uncleanAllowed: opts.unclean ?? false, election: opts.election ?? 'ISR' });
}

test('nothing to change: no write', () => {
  assert.equal(change(record({}), [1, 2, 3]), undefined);
  assert.equal(change(record({ isr: [1, 2] }), [1, 2]), undefined);
});

test('the leader gone: the next ISR replica in replica order leads, epochs bumped, the dead leaves the ISR', () => {
  assert.deepEqual(change(record({ replicas: [1, 3, 2] }), [2, 3]),
    { replicas: [1, 3, 2], leader: 3, leaderEpoch: 5, isr: [2, 3], partitionEpoch: 8, elr: [], lastKnownElr: [] });
});

test('a follower gone: the ISR shrinks, the leader and its epoch stay, the partition epoch moves', () => {
  assert.deepEqual(change(record({}), [1, 2]), { replicas: [1, 2, 3], leader: 1, leaderEpoch: 4, isr: [1, 2], partitionEpoch: 8, elr: [], lastKnownElr: [] });
});

test('below min.insync.replicas the replicas that leave the ISR join the ELR, and lead when the ISR has nobody', () => {
  const shrunk = change(record({ isr: [1, 2] }), [1]);
  assert.deepEqual(shrunk, { replicas: [1, 2, 3], leader: 1, leaderEpoch: 4, isr: [1], partitionEpoch: 8, elr: [2], lastKnownElr: [] });
  // The leader dies too: 2 is ELR and live again, 1 joins the ELR and 2 leads alone in the ISR.
  const elected = change(shrunk!, [2]);
  assert.deepEqual(elected, { replicas: [1, 2, 3], leader: 2, leaderEpoch: 5, isr: [2], partitionEpoch: 9, elr: [1], lastKnownElr: [] });
});

test('no eligible replica: leaderless (-1), the last leader remembered; back in the ELR it is elected again', () => {
  const alone = change(record({ isr: [1] }), [2, 3]);
  assert.deepEqual(alone, { replicas: [1, 2, 3], leader: -1, leaderEpoch: 5, isr: [], partitionEpoch: 8, elr: [1], lastKnownElr: [] });
  assert.deepEqual(change(alone!, [1, 2, 3]), { replicas: [1, 2, 3], leader: 1, leaderEpoch: 6, isr: [1], partitionEpoch: 9, elr: [], lastKnownElr: [] });
  // Nobody at all is live: still leaderless, no write.
  assert.equal(change(alone!, []), undefined);
});

test('min.insync.replicas 1: the ISR empties without an ELR, the last leader is the last known ELR; unclean elects a live replica', () => {
  const gone = change(record({ isr: [1] }), [2, 3], { minIsr: 1 });
  assert.deepEqual(gone, { replicas: [1, 2, 3], leader: -1, leaderEpoch: 5, isr: [], partitionEpoch: 8, elr: [1], lastKnownElr: [] });
  const noElr = change(record({ isr: [1], elr: [] }), [2, 3], { minIsr: 0 });
  assert.deepEqual(noElr, { replicas: [1, 2, 3], leader: -1, leaderEpoch: 5, isr: [], partitionEpoch: 8, elr: [], lastKnownElr: [1] });
  assert.deepEqual(change(noElr!, [2, 3], { minIsr: 0, unclean: true }), { replicas: [1, 2, 3], leader: 2, leaderEpoch: 6, isr: [2], partitionEpoch: 9, elr: [], lastKnownElr: [] });
  assert.deepEqual(change(noElr!, [1, 3], { minIsr: 0, election: 'UNCLEAN' })?.leader, 1, 'the last known leader first');
});

test('PREFERRED: the first replica leads when live and in the ISR, else nothing moves', () => {
  assert.deepEqual(change(record({ leader: 2 }), [1, 2, 3], { election: 'PREFERRED' }),
    { replicas: [1, 2, 3], leader: 1, leaderEpoch: 5, isr: [1, 2, 3], partitionEpoch: 8, elr: [], lastKnownElr: [] });
  assert.equal(change(record({ leader: 2, isr: [2, 3] }), [1, 2, 3], { election: 'PREFERRED' }), undefined);
  assert.equal(change(record({}), [1, 2, 3], { election: 'PREFERRED' }), undefined);
});

test('a broker in controlled shutdown is neither leader nor in the ISR', () => {
  const r = record({});
  const next = partitionChange({ record: r, acceptable: (id) => id !== 1, inSync: (id) => id !== 1, minInsyncReplicas: 2, uncleanAllowed: false, election: 'ISR' });
  assert.deepEqual(next, { replicas: [1, 2, 3], leader: 2, leaderEpoch: 5, isr: [2, 3], partitionEpoch: 8, elr: [], lastKnownElr: [] });
});
