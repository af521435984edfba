/**
 * Produce from the console: one record, through the broker's Produce API (acks=all) as a client sends it, so it is
 * validated, stamped and counted as any client's. The partition is the caller's, else the Java client's default:
 * murmur2 of the key, or the next partition in turn for a record without a key.
 */
import { produceApi, createProduceRequest } from '../../protocol/generated/produce.js';
import { encodeRecordBatch } from '../../protocol/records/index.js';
import { ZERO_UUID } from '../../protocol/uuid.js';
import { checkError, type KafkaCalls } from './kafka-calls.js';

export interface ProduceInput {
  readonly topic: string;
  readonly partition?: number;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: readonly { readonly key: string; readonly value: string | null }[];
}

/** Kafka's Utils.murmur2 (the Java client's and kafkajs's default partitioner hash). */
export function murmur2(data: Buffer): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = (0x9747b28c ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length & 3;
  if (tail === 3) h ^= data[whole + 2]! << 16;
  if (tail >= 2) h ^= data[whole + 1]! << 8;
  if (tail >= 1) h = Math.imul(h ^ data[whole]!, m);
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h;
}

let nextUnkeyed = 0;

export function partitionFor(key: Buffer | null, partitions: number): number {
  if (key === null) return nextUnkeyed++ % partitions;
  return (murmur2(key) & 0x7fffffff) % partitions;
}

/** Returns where the record went. */
export async function produceRecord(kafka: KafkaCalls, input: ProduceInput, partitions: number, now: number): Promise<{ partition: number; offset: number }> {
  const key = input.key === null ? null : Buffer.from(input.key, 'utf8');
  const partition = input.partition ?? partitionFor(key, partitions);
  const batch = encodeRecordBatch({
    records: [{
      timestamp: now, key, value: input.value === null ? null : Buffer.from(input.value, 'utf8'),
      headers: input.headers.map((h) => ({ key: h.key, value: h.value === null ? null : Buffer.from(h.value, 'utf8') })),
    }],
  });
  const response = await kafka.call(produceApi, 11, {
    ...createProduceRequest(), acks: -1, timeoutMs: 30_000,
    topicData: [{ name: input.topic, topicId: ZERO_UUID, partitionData: [{ index: partition, records: batch }] }],
  });
  const result = response.responses[0]!.partitionResponses[0]!;
  checkError(result.errorCode, result.errorMessage);
  return { partition, offset: Number(result.baseOffset) };
}
