// The sticky task assignor against Kafka 4.3.1's StickyTaskAssignor: each case's expectation is what Kafka's class
// (kafka-group-coordinator-4.3.1.jar) returned for the same group spec, members in a HashMap as Kafka hands them over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaMemberOrder } from '../../../src/coordinator/runtime/java-hash-table.js';
import { stickyAssign, type AssignmentMember } from '../../../src/coordinator/group/streams/sticky-assignor.js';
import type { TaskSets } from '../../../src/coordinator/group/streams/tasks.js';

/** "0:0,1;1:2" → tasks. */
function tasks(spec: string): TaskSets {
  if (spec === '') return new Map();
  return new Map(spec.split(';').map((part) => {
    const [id, parts] = part.split(':');
    return [id!, new Set(parts!.split(',').map(Number))];
  }));
}

const show = (t: TaskSets): string =>
  [...t].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, parts]) => `${id}:${[...parts].sort((a, b) => a - b).join(',')}`).join(' ');

/** standby replicas, subtopologies ("1=4s": 4 tasks, stateful), members "id/process/active/standby" → "id active … | standby …" lines. */
function assign(standby: number, subtopologies: string, ...members: string[]): string[] {
  const subs = new Map(subtopologies.split(',').map((s) => {
    const [id, n] = s.split('=');
    return [id!, { n: parseInt(n!, 10), stateful: n!.endsWith('s') }];
  }));
  const specs = new Map(members.map((m) => {
    const [id, processId, active, standbyTasks] = m.split('/');
    return [id!, { processId: processId!, activeTasks: tasks(active!), standbyTasks: tasks(standbyTasks!) } satisfies AssignmentMember];
  }));
  const ordered = new Map(kafkaMemberOrder(specs.keys()).map((id) => [id, specs.get(id)!]));
  const result = stickyAssign(ordered, { subtopologies: [...subs.keys()].sort(), numTasks: (s) => subs.get(s)!.n, isStateful: (s) => subs.get(s)!.stateful }, standby);
  return [...result].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, t]) => `${id} active ${show(t.active)} | standby ${show(t.standby)}`.trimEnd());
}

test('new members share the tasks as Kafka hands them out (least loaded process first, Java\'s heap order on ties)', () => {
  assert.deepEqual(assign(0, '0=4,1=4s', 'm1/p-m1//', 'm2/p-m2//'), ['m1 active 0:1,3 1:1,3 | standby', 'm2 active 0:0,2 1:0,2 | standby']);
  assert.deepEqual(assign(0, 'a=3,b=3', 'k1/q//'), ['k1 active a:0,1,2 b:0,1,2 | standby']);
});

test('two members of one process and one of another, one standby per stateful task', () => {
  assert.deepEqual(assign(1, '0=6,1=6s', 'm1/p1//', 'm2/p1//', 'm3/p2//'), [
    'm1 active 0:0,4 1:1,4 | standby 1:3',
    'm2 active 0:2,5 1:2,5 | standby 1:0',
    'm3 active 0:1,3 1:0,3 | standby 1:1,2,4,5',
  ]);
});

test('sticky: a member keeps what it had up to its quota; previous standbys are preferred', () => {
  assert.deepEqual(assign(0, '0=4,1=4s', 'm1/p-m1/0:0,1,2,3;1:0,1,2,3/', 'm2/p-m2//'), ['m1 active 0:0,1 1:0,1 | standby', 'm2 active 0:2,3 1:2,3 | standby']);
  assert.deepEqual(assign(1, '0=4,1=4s', 'a/pa/1:0,1/1:2,3', 'b/pb/1:2,3/1:0,1', 'c/pc//'), [
    'a active 0:2 1:0,1 | standby 1:3',
    'b active 1:2,3 | standby 1:0,1',
    'c active 0:0,1,3 | standby 1:2',
  ]);
  assert.deepEqual(assign(1, '0=8s', 'm-1/proc-a/0:0,1,2,3/0:4,5', 'm-2/proc-b/0:4,5,6,7/0:0,1', 'm-3/proc-b//', 'm-4/proc-c//'), [
    'm-1 active 0:0,1 | standby 0:4,5',
    'm-2 active 0:4,5 | standby 0:1,6',
    'm-3 active 0:3,7 | standby 0:0,2',
    'm-4 active 0:2,6 | standby 0:3,7',
  ]);
});

test('uneven subtopologies with two standbys each', () => {
  assert.deepEqual(assign(2, '0=5,1=3s,2=7s', 'x/p1//', 'y/p2//', 'z/p3//'), [
    'x active 0:0 1:0,2 2:1,6 | standby 1:1 2:0,2,3,4,5',
    'y active 0:2,4 1:1 2:3,5 | standby 1:0,2 2:0,1,2,4,6',
    'z active 0:1,3 2:0,2,4 | standby 1:0,1,2 2:1,3,5,6',
  ]);
});
