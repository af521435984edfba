/**
 * The uniform assignor when members subscribe to different topics (Kafka's UniformHeterogeneousAssignmentBuilder):
 * members keep the partitions of topics they still subscribe to; free partitions go, topic by topic, to the least
 * loaded subscribers; then, for topics with two subscribers or more, partitions move from the most loaded to the
 * least loaded subscriber until each topic's subscribers differ by at most one partition in total load (up to 16
 * passes over the topics, stopping after a full pass that moved nothing).
 * Topics are taken most partitions per subscriber first, then fewest subscribers, then by id (Uuid order); members
 * by load, then group order.
 */
import { type GroupAssignment, type GroupSpec, PartitionAssignorError, type SubscribedTopicDescriber, type TopicPartitions } from './assignor.js';
import { deepCopyAssignment, type JavaAssignment, newPartitionSet, replayedAssignment, toTopicPartitions } from './java-assignment.js';
import { presizedRequest } from '../../runtime/java-hash-table.js';

const MAX_BALANCE_PASSES = 16;

/** Uuid.compareTo: the two 64-bit halves as signed numbers. */
function compareUuids(a: string, b: string): number {
  const x = Buffer.from(a, 'base64url');
  const y = Buffer.from(b, 'base64url');
  for (const offset of [0, 8]) {
    const p = x.length === 16 ? x.readBigInt64BE(offset) : 0n;
    const q = y.length === 16 ? y.readBigInt64BE(offset) : 0n;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

export function assignHeterogeneous(group: GroupSpec, topics: SubscribedTopicDescriber): GroupAssignment {
  return new HeterogeneousAssignment(group, topics).build();
}

class HeterogeneousAssignment {
  private readonly memberIds: readonly string[];
  /** Subscriber member indexes by topic, in group order; its key order is the first-subscription order. */
  private readonly subscribers = new Map<string, number[]>();
  private readonly partitionCounts = new Map<string, number>();
  /** Owner member index of each partition (-1: none), by topic. */
  private readonly owners = new Map<string, Int32Array>();
  private readonly loads: Int32Array;
  private readonly target: JavaAssignment[] = [];
  /** Whether target[i] is still the member's current assignment (Kafka copies it before the first change). */
  private readonly unchanged: boolean[] = [];
  private readonly topicOrder: (a: string, b: string) => number;

  constructor(
    private readonly group: GroupSpec,
    topics: SubscribedTopicDescriber,
  ) {
    this.memberIds = group.memberIds;
    this.loads = new Int32Array(this.memberIds.length);
    this.memberIds.forEach((memberId, index) => {
      for (const topicId of group.memberSubscription(memberId).subscribedTopicIds) {
        const count = topics.numPartitions(topicId);
        if (count === -1) throw new PartitionAssignorError(`Members are subscribed to topic ${topicId} which doesn't exist in the topic metadata.`);
        let list = this.subscribers.get(topicId);
        if (list === undefined) {
          list = [];
          this.subscribers.set(topicId, list);
          this.partitionCounts.set(topicId, count);
          this.owners.set(topicId, new Int32Array(count).fill(-1));
        }
        list.push(index);
      }
    });
    const uuidOrder = new Map<string, number>();
    [...this.subscribers.keys()].sort(compareUuids).forEach((topicId, rank) => uuidOrder.set(topicId, rank));
    this.topicOrder = (a, b) => {
      const subscribersA = this.subscribers.get(a)!.length;
      const subscribersB = this.subscribers.get(b)!.length;
      const perSubscriberA = this.partitionCounts.get(a)! / subscribersA;
      const perSubscriberB = this.partitionCounts.get(b)! / subscribersB;
      if (perSubscriberA !== perSubscriberB) return perSubscriberA > perSubscriberB ? -1 : 1;
      return subscribersA - subscribersB || uuidOrder.get(a)! - uuidOrder.get(b)!;
    };
  }

  build(): GroupAssignment {
    if (this.subscribers.size === 0) return new Map();
    this.keepSubscribedPartitions();
    this.assignFreePartitions();
    this.balance();
    const result = new Map<string, TopicPartitions>();
    this.memberIds.forEach((memberId, index) => result.set(memberId, toTopicPartitions(this.target[index]!)));
    return result;
  }

  private keepSubscribedPartitions(): void {
    this.memberIds.forEach((memberId, index) => {
      const current = replayedAssignment(this.group.memberAssignment(memberId));
      const subscribed = this.group.memberSubscription(memberId).subscribedTopicIds;
      let kept: JavaAssignment | null = null;
      for (const [topicId, partitions] of current.entriesInOrder()) {
        if (subscribed.has(topicId)) {
          this.loads[index]! += partitions.size;
          const owners = this.owners.get(topicId)!;
          for (const partition of partitions.keys()) {
            if (partition >= owners.length) throw new PartitionAssignorError(`Partition ${partition} of topic ${topicId} is assigned but the topic has ${owners.length} partitions.`);
            owners[partition] = index;
          }
        } else {
          kept ??= deepCopyAssignment(current);
          kept.delete(topicId);
        }
      }
      this.target[index] = kept ?? current;
      this.unchanged[index] = kept === null;
    });
  }

  private assignFreePartitions(): void {
    const free = new Map<string, number[]>();
    for (const [topicId, owners] of this.owners) {
      const partitions: number[] = [];
      owners.forEach((owner, partition) => {
        if (owner === -1) partitions.push(partition);
      });
      if (partitions.length > 0) free.set(topicId, partitions);
    }
    const balancer = new LoadBalancer(this.loads);
    for (const topicId of [...free.keys()].sort(this.topicOrder)) {
      balancer.start(this.subscribers.get(topicId)!);
      for (const partition of free.get(topicId)!) this.move(topicId, partition, balancer.nextLeastLoaded());
    }
  }

  private balance(): void {
    const shared = [...this.subscribers.keys()].filter((topicId) => this.subscribers.get(topicId)!.length >= 2);
    if (shared.length === 0) return;
    shared.sort(this.topicOrder);
    const balancer = new LoadBalancer(this.loads);
    let lastMovingTopic = -1;
    for (let pass = 0; pass < MAX_BALANCE_PASSES; pass++) {
      for (let index = 0; index < shared.length; index++) {
        // A whole pass since the last topic that moved a partition moved none: balanced.
        if (index === lastMovingTopic) return;
        const moved = this.balanceTopic(shared[index]!, balancer);
        if (moved > 0 || lastMovingTopic === -1) lastMovingTopic = index;
      }
    }
  }

  /** Moves partitions of one topic from its most to its least loaded subscribers; returns how many moved. */
  private balanceTopic(topicId: string, balancer: LoadBalancer): number {
    const owners = this.owners.get(topicId)!;
    if (balancer.start(this.subscribers.get(topicId)!) <= 1) return 0;
    // Partitions grouped by owner (ascending), each group ascending: a member gives up its highest first.
    const partitions = Array.from(owners.keys()).sort((a, b) => owners[a]! - owners[b]! || a - b);
    const first = new Map<number, number>();
    const end = new Map<number, number>();
    partitions.forEach((partition, i) => {
      const owner = owners[partition]!;
      if (!first.has(owner)) first.set(owner, i);
      end.set(owner, i + 1);
    });
    let moved = 0;
    while (!balancer.isBalanced()) {
      let giver = -1;
      for (;;) {
        giver = balancer.nextMostLoaded();
        if (giver === -1) break;
        const giverEnd = end.get(giver);
        if (giverEnd === undefined || giverEnd - first.get(giver)! <= 0) {
          balancer.excludeMostLoaded();
          continue;
        }
        break;
      }
      if (giver === -1) break;
      const partition = partitions[end.get(giver)! - 1]!;
      end.set(giver, end.get(giver)! - 1);
      const taker = balancer.nextLeastLoaded();
      if (balancer.isBalanced()) break;
      this.move(topicId, partition, taker);
      moved++;
    }
    return moved;
  }

  private writable(member: number): JavaAssignment {
    if (this.unchanged[member]) {
      this.target[member] = deepCopyAssignment(this.target[member]!);
      this.unchanged[member] = false;
    }
    return this.target[member]!;
  }

  private move(topicId: string, partition: number, member: number): void {
    const owners = this.owners.get(topicId)!;
    const previous = owners[partition]!;
    if (previous !== -1) {
      const assignment = this.writable(previous);
      const partitions = assignment.get(topicId);
      if (partitions !== undefined) {
        partitions.delete(partition);
        if (partitions.size === 0) assignment.delete(topicId);
      }
      owners[partition] = -1;
      this.loads[previous]!--;
    }
    const partitions = this.writable(member).computeIfAbsent(topicId, () => {
      const subscriberCount = this.subscribers.get(topicId)!.length;
      const estimate = Math.floor((this.partitionCounts.get(topicId)! + subscriberCount - 1) / subscriberCount);
      return newPartitionSet(presizedRequest(estimate));
    });
    partitions.set(partition, true);
    owners[partition] = member;
    this.loads[member]!++;
  }
}

/**
 * Walks a topic's subscribers sorted by load (then group order): the least loaded ones in turns, the load level
 * rising as each level fills, and the most loaded ones likewise from the top, as Kafka's MemberAssignmentBalancer.
 */
class LoadBalancer {
  private sorted: number[] = [];
  private leastEnd = 0; // exclusive end of the members at the least loaded level
  private leastLevel = -1;
  private nextLeast = 0;
  private mostStart = 0; // inclusive start of the members at the most loaded level
  private mostEnd = 0; // exclusive end (excluded members are swapped past it)
  private mostLevel = 1;
  private nextMost = -1;

  constructor(private readonly loads: Int32Array) {}

  /** Sorts the subscribers; returns the spread between the most and the least loaded. */
  start(members: readonly number[]): number {
    const loads = this.loads;
    this.sorted = [...members].sort((a, b) => loads[a]! - loads[b]! || a - b);
    const lowest = loads[this.sorted[0]!]!;
    const highest = loads[this.sorted[this.sorted.length - 1]!]!;
    this.leastEnd = 0;
    this.leastLevel = lowest - 1;
    this.nextLeast = 0;
    this.mostStart = this.sorted.length;
    this.mostEnd = this.sorted.length;
    this.mostLevel = highest + 1;
    this.nextMost = this.sorted.length - 1;
    return highest - lowest;
  }

  nextLeastLoaded(): number {
    if (this.nextLeast >= this.leastEnd) {
      this.leastLevel++;
      while (this.leastEnd < this.sorted.length && this.loads[this.sorted[this.leastEnd]!] === this.leastLevel) this.leastEnd++;
      this.nextLeast = 0;
    }
    return this.sorted[this.nextLeast++]!;
  }

  nextMostLoaded(): number {
    if (this.nextMost < this.mostStart) {
      if (this.mostEnd <= this.mostStart && this.mostStart > 0) this.mostLevel = this.loads[this.sorted[this.mostStart - 1]!]!;
      else this.mostLevel--;
      while (this.mostStart > 0 && this.loads[this.sorted[this.mostStart - 1]!] === this.mostLevel) this.mostStart--;
      this.nextMost = this.mostEnd - 1;
    }
    if (this.nextMost < 0) return -1;
    return this.sorted[this.nextMost--]!;
  }

  /** Drops the member nextMostLoaded just returned from the most loaded level (it has nothing left to give). */
  excludeMostLoaded(): void {
    const slot = this.nextMost + 1;
    const member = this.sorted[slot]!;
    this.sorted[slot] = this.sorted[this.mostEnd - 1]!;
    this.sorted[this.mostEnd - 1] = member;
    this.mostEnd--;
  }

  isBalanced(): boolean {
    return this.mostLevel - this.leastLevel <= 1;
  }
}
