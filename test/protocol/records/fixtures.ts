// Loads the hex fixtures under test/fixtures/records (written by kafkajs 2.2.4's encoder; see generate.mjs there).
import { readFileSync } from 'node:fs';

const dir = new URL('../../../../test/fixtures/records/', import.meta.url);

export function fixture(name: string): Buffer {
  return Buffer.from(readFileSync(new URL(`${name}.hex`, dir), 'utf8').trim(), 'hex');
}

/** The values every kafkajs fixture was generated with. */
export const FIXTURE = {
  baseTimestamp: 1_700_000_000_000,
  maxTimestamp: 1_700_000_000_009,
  producerId: 4242,
  producerEpoch: 3,
  baseSequence: 17,
  lastOffsetDelta: 2,
  recordCount: 3,
} as const;
