/**
 * The server-side assignors by name (`group.consumer.assignors`, a member's ServerAssignor): the one place that
 * names them. The two here are interim: `uniform` balances every member's partition count within one, keeping
 * what a member already has where the balance allows; `range` splits each topic into contiguous ranges over its
 * subscribers in member id order. Kafka's exact algorithms replace them behind this registry.
 */
import { KafkaError } from '../../../protocol/kafka-error.js';
import type { ConsumerGroupAssignor, GroupAssignment, GroupSpec, SubscribedTopicDescriber, TopicPartitions } from './assignor.js';

interface Partition {
  readonly topicId: string;
  readonly partition: number;
}

/** Every partition of every subscribed topic, in topic id then partition order, each with its subscribers. */
function subscribedPartitions(group: GroupSpec, topics: SubscribedTopicDescriber): { partition: Partition; subscribers: string[] }[] {
  const subscribers = new Map<string, string[]>();
  for (const memberId of group.memberIds) {
    for (const topicId of group.memberSubscription(memberId).subscribedTopicIds) {
      let list = subscribers.get(topicId);
      if (list === undefined) subscribers.set(topicId, (list = []));
      list.push(memberId);
    }
  }
  const result: { partition: Partition; subscribers: string[] }[] = [];
  for (const topicId of [...subscribers.keys()].sort()) {
    const count = topics.numPartitions(topicId);
    for (let p = 0; p < count; p++) result.push({ partition: { topicId, partition: p }, subscribers: subscribers.get(topicId)! });
  }
  return result;
}

function toAssignment(memberIds: readonly string[], owned: Map<string, Partition[]>): GroupAssignment {
  const result = new Map<string, TopicPartitions>();
  for (const memberId of memberIds) {
    const topics = new Map<string, Set<number>>();
    for (const { topicId, partition } of owned.get(memberId) ?? []) {
      let set = topics.get(topicId);
      if (set === undefined) topics.set(topicId, (set = new Set()));
      set.add(partition);
    }
    result.set(memberId, topics);
  }
  return result;
}

export const uniformAssignor: ConsumerGroupAssignor = {
  name: 'uniform',
  assign(group, topics) {
    const members = [...group.memberIds].sort();
    const all = subscribedPartitions(group, topics);
    const owned = new Map<string, Partition[]>(members.map((m) => [m, []]));
    if (members.length === 0) return toAssignment(members, owned);
    const minQuota = Math.floor(all.length / members.length);
    let extras = all.length % members.length;
    const unassigned: { partition: Partition; subscribers: string[] }[] = [];
    const kept: { partition: Partition; subscribers: string[]; owner: string }[] = [];
    // Sticky: a partition stays with its current owner (still subscribed) up to the owner's quota.
    for (const entry of all) {
      const owner = entry.subscribers.find((m) => group.memberAssignment(m).get(entry.partition.topicId)?.has(entry.partition.partition) === true);
      if (owner === undefined) unassigned.push(entry);
      else kept.push({ ...entry, owner });
    }
    const overflow: typeof unassigned = [];
    for (const entry of kept) {
      const list = owned.get(entry.owner)!;
      if (list.length < minQuota) list.push(entry.partition);
      else overflow.push(entry);
    }
    for (const entry of overflow) {
      const list = owned.get((entry as (typeof kept)[number]).owner)!;
      if (list.length === minQuota && extras > 0) {
        list.push(entry.partition);
        extras--;
      } else unassigned.push(entry);
    }
    // The rest go to the subscriber holding the fewest.
    for (const entry of unassigned) {
      let best: string | undefined;
      for (const m of entry.subscribers) if (best === undefined || owned.get(m)!.length < owned.get(best)!.length) best = m;
      if (best !== undefined) owned.get(best)!.push(entry.partition);
    }
    return toAssignment(group.memberIds, owned);
  },
};

export const rangeAssignor: ConsumerGroupAssignor = {
  name: 'range',
  assign(group, topics) {
    const owned = new Map<string, Partition[]>(group.memberIds.map((m) => [m, []]));
    const byTopic = new Map<string, string[]>();
    for (const { partition, subscribers } of subscribedPartitions(group, topics)) byTopic.set(partition.topicId, subscribers);
    for (const [topicId, subscribers] of byTopic) {
      const sorted = [...subscribers].sort();
      const count = topics.numPartitions(topicId);
      const quota = Math.floor(count / sorted.length);
      const extra = count % sorted.length;
      let next = 0;
      sorted.forEach((m, i) => {
        const n = quota + (i < extra ? 1 : 0);
        for (let k = 0; k < n; k++) owned.get(m)!.push({ topicId, partition: next++ });
      });
    }
    return toAssignment(group.memberIds, owned);
  },
};

const ASSIGNORS: readonly ConsumerGroupAssignor[] = [uniformAssignor, rangeAssignor];

/** The assignors of `group.consumer.assignors`, in its order; an unknown name is a configuration error. */
export function consumerGroupAssignors(names: readonly string[]): Map<string, ConsumerGroupAssignor> {
  const result = new Map<string, ConsumerGroupAssignor>();
  for (const name of names) {
    const assignor = ASSIGNORS.find((a) => a.name === name);
    if (assignor === undefined) throw new KafkaError('INVALID_CONFIG', `group.consumer.assignors: unknown assignor ${name}`);
    result.set(name, assignor);
  }
  return result;
}
