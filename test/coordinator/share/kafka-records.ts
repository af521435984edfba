// The __consumer_offsets records Kafka 4.3.1 wrote for a share group (test/fixtures/share-groups/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StaticTopicsImage } from '../../../src/coordinator/group/consumer/topics-image.js';
import type { KafkaRecord } from '../consumer/kafka-records.js';

export function kafkaShareRecords(): KafkaRecord[] {
  const file = join(process.cwd(), 'test', 'fixtures', 'share-groups', 'kafka-4.3.1-s1.jsonl');
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { offset: number; key: string; value: string | null })
    .map((r) => ({ offset: r.offset, key: Buffer.from(r.key, 'hex'), value: r.value === null ? null : Buffer.from(r.value, 'hex') }));
}

export function kafkaShareRecord(offset: number): KafkaRecord {
  const record = kafkaShareRecords().find((r) => r.offset === offset);
  if (record === undefined) throw new Error(`no record at offset ${offset} of s1`);
  return record;
}

export const JOBS_ID = 'NKqEsYlcTmqUO9XmTrdJdw';
export const MEMBER_A = 'kiC7lVcMSM-Wfdph-djkgg'; // c-a, joined first
export const MEMBER_B = 'uwqvp4UYTjuxE37-9QjNMA'; // c-b

/** The reference broker's topics when it wrote the records. */
export const SHARE_IMAGE = new StaticTopicsImage([{ id: JOBS_ID, name: 'jobs', numPartitions: 3 }]);
