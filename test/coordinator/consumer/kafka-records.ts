// The __consumer_offsets records Kafka 4.3.1 wrote for two consumer groups and a mixed one (test/fixtures/consumer-groups/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StaticTopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';

export interface KafkaRecord {
  readonly offset: number;
  readonly key: Buffer;
  readonly value: Buffer | null;
}

export function kafkaRecords(group: 'g1' | 'g2' | 'mixed'): KafkaRecord[] {
  const file = join(process.cwd(), 'test', 'fixtures', 'consumer-groups', `kafka-4.3.1-${group}.jsonl`);
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { offset: number; key: string; value: string | null })
    .map((r) => ({ offset: r.offset, key: Buffer.from(r.key, 'hex'), value: r.value === null ? null : Buffer.from(r.value, 'hex') }));
}

export function kafkaRecord(group: 'g1' | 'g2' | 'mixed', offset: number): KafkaRecord {
  const record = kafkaRecords(group).find((r) => r.offset === offset);
  if (record === undefined) throw new Error(`no record at offset ${offset} of ${group}`);
  return record;
}

const uuid = (hex: string): string => Buffer.from(hex, 'hex').toString('base64url');
export const ORDERS_ID = uuid('d02e25ea171f44c791e6efb8746b91d8');
export const PAYMENTS_ID = uuid('d9fc01b3e5be449b92faab8ab897eabb');

/** The reference broker's topics when it wrote the records. */
export const KAFKA_IMAGE = new StaticTopicsImage([
  { id: ORDERS_ID, name: 'orders', numPartitions: 4 },
  { id: PAYMENTS_ID, name: 'payments', numPartitions: 2 },
]);
