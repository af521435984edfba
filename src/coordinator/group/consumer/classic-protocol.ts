/**
 * The embedded ConsumerProtocol of classic members (Kafka's ConsumerProtocol as the group coordinator uses it): a
 * JoinGroup subscription read into topic names, rack and owned partitions; an assignment written for SyncGroup in the
 * version the member's subscription was written in; a classic assignment read back into topic ids.
 */
import {
  decodeConsumerProtocolAssignment,
  encodeConsumerProtocolAssignment,
  type ConsumerProtocolAssignment,
} from '../../../protocol/generated/data/consumer-protocol-assignment.js';
import {
  decodeConsumerProtocolSubscription,
  type ConsumerProtocolSubscription,
} from '../../../protocol/generated/data/consumer-protocol-subscription.js';
import type { ClassicProtocol } from '../../../protocol/generated/internal/group-coordinator/consumer-group-member-metadata-value.js';
import { Reader } from '../../../protocol/io/reader.js';
import { Writer } from '../../../protocol/io/writer.js';
import type { TopicPartitions } from './assignor.js';
import type { PartitionEpochs } from './member.js';
import type { TopicsImage } from './topics-image.js';

/** The highest ConsumerProtocol version this coordinator reads and writes (Kafka 4.3.1's CONSUMER_PROTOCOL_LATEST_VERSION). */
const LATEST_VERSION = 3;

/** The embedded protocol is malformed (Kafka's SchemaException). */
export class MalformedConsumerProtocol extends Error {}

/** Kafka's ConsumerProtocol.deserializeVersion: the int16 every subscription and assignment starts with. */
export function consumerProtocolVersion(bytes: Buffer): number {
  if (bytes.length < 2) throw new MalformedConsumerProtocol('Error reading field version: insufficient data');
  const version = bytes.readInt16BE(0);
  if (version < 0) throw new MalformedConsumerProtocol(`Unsupported subscription version: ${version}`);
  return version;
}

function decodeVersioned<T>(bytes: Buffer, decode: (r: Reader, version: number) => T): T {
  const version = Math.min(consumerProtocolVersion(bytes), LATEST_VERSION);
  try {
    const r = new Reader(bytes);
    r.int16();
    return decode(r, version);
  } catch (error) {
    throw new MalformedConsumerProtocol(error instanceof Error ? error.message : String(error));
  }
}

export function decodeSubscription(metadata: Buffer): ConsumerProtocolSubscription {
  return decodeVersioned(metadata, decodeConsumerProtocolSubscription);
}

export function decodeAssignment(bytes: Buffer): ConsumerProtocolAssignment {
  return decodeVersioned(bytes, decodeConsumerProtocolAssignment);
}

/** Kafka's ConsumerProtocol.serializeAssignment at the version of the member's first protocol's subscription. */
export function encodeAssignment(partitions: TopicPartitions | PartitionEpochs, image: TopicsImage, protocols: readonly ClassicProtocol[]): Buffer {
  const version = Math.min(consumerProtocolVersion(protocols[0]?.metadata ?? Buffer.alloc(0)), LATEST_VERSION);
  const assignment: ConsumerProtocolAssignment = { assignedPartitions: [], userData: null };
  for (const [topicId, set] of partitions) {
    const topic = image.byId(topicId);
    // A deleted topic's partitions are left out, as Kafka's toConsumerProtocolAssignment does.
    if (topic !== undefined) assignment.assignedPartitions.push({ topic: topic.name, partitions: [...set.keys()] });
  }
  const w = new Writer(64);
  w.int16(version);
  encodeConsumerProtocolAssignment(w, assignment, version);
  return w.toBuffer();
}

/** A classic assignment by topic id (Kafka's toTopicPartitionMap: topics not in the image are left out). */
export function assignmentByTopicId(assignment: ConsumerProtocolAssignment, image: TopicsImage): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const tp of assignment.assignedPartitions) {
    const topic = image.byName(tp.topic);
    if (topic === undefined) continue;
    let set = out.get(topic.id);
    if (set === undefined) out.set(topic.id, (set = new Set()));
    for (const p of tp.partitions) set.add(p);
  }
  return out;
}

/** The owned partitions of a JoinGroup subscription by topic id (Kafka's toTopicPartitions). */
export function ownedByTopicId(subscription: ConsumerProtocolSubscription, image: TopicsImage): { topicId: string; partitions: number[] }[] {
  const out: { topicId: string; partitions: number[] }[] = [];
  for (const tp of subscription.ownedPartitions) {
    const topic = image.byName(tp.topic);
    if (topic !== undefined) out.push({ topicId: topic.id, partitions: tp.partitions });
  }
  return out;
}
