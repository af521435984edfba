/**
 * What the share coordinator's APIs (keys 83-87) share, as Kafka 4.3.1's ShareCoordinatorService: an empty topic
 * list, an empty partition list or an empty group id answers no results; otherwise every partition runs on its own
 * (all started before the first await, so the writes reach the log in request order) and the answers are grouped
 * per topic in request order. Before __share_group_state exists (FindCoordinator with key type SHARE creates it, as
 * the persister's lookup does) the partitions it would own are not loaded: every partition answers NOT_COORDINATOR,
 * as Kafka's runtime does for a coordinator it has not loaded.
 */
import { ErrorCode, errorInfo } from '../protocol/error-codes.js';
import type { SharePartitionKey, StateBatch } from '../coordinator/share-state/records.js';
import type { ShareCoordinator } from '../coordinator/share-state/share-coordinator.js';

/** NOT_COORDINATOR while __share_group_state does not exist, in Kafka's words ("Unable to <operation>: ..."); undefined once it does. */
export function notLoaded<T extends object>(shareState: ShareCoordinator, operation: string, fields: T): (T & { errorCode: number; errorMessage: string }) | undefined {
  if (shareState.hasStateTopic) return undefined;
  return { ...fields, errorCode: ErrorCode.NOT_COORDINATOR, errorMessage: `Unable to ${operation}: ${errorInfo(ErrorCode.NOT_COORDINATOR).message}` };
}

export interface TopicAnswers<A> {
  readonly topicId: string;
  readonly partitions: { partition: number; answer: A }[];
}

export async function perSharePartition<P extends { partition: number }, A>(
  groupId: string,
  topics: readonly { topicId: string; partitions: readonly P[] }[],
  run: (key: SharePartitionKey, partition: P) => Promise<A>,
  notLoaded?: A,
): Promise<TopicAnswers<A>[]> {
  if (topics.length === 0 || topics.some((t) => t.partitions.length === 0) || groupId === '') return [];
  if (notLoaded !== undefined) return topics.map((t) => ({ topicId: t.topicId, partitions: t.partitions.map((p) => ({ partition: p.partition, answer: notLoaded })) }));
  const pending = topics.map((t) => ({
    topicId: t.topicId,
    partitions: t.partitions.map((p) => ({ partition: p.partition, answer: run({ groupId, topicId: t.topicId, partition: p.partition }, p) })),
  }));
  const out: TopicAnswers<A>[] = [];
  for (const t of pending) {
    const partitions = [];
    for (const p of t.partitions) partitions.push({ partition: p.partition, answer: await p.answer });
    out.push({ topicId: t.topicId, partitions });
  }
  return out;
}

export function stateBatchesOut(batches: readonly StateBatch[]): { firstOffset: bigint; lastOffset: bigint; deliveryState: number; deliveryCount: number }[] {
  return batches.map((b) => ({ firstOffset: BigInt(b.firstOffset), lastOffset: BigInt(b.lastOffset), deliveryState: b.deliveryState, deliveryCount: b.deliveryCount }));
}
