// A broker over a memory store the test can reach, and request builders for the data-path APIs.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { createFetchPartition, createFetchRequest, fetchApi, type FetchRequest, type FetchResponse } from '../../src/protocol/generated/fetch.js';
import { produceApi, type ProduceResponse } from '../../src/protocol/generated/produce.js';
import { encodeRecordBatch, type RecordInput } from '../../src/protocol/records/index.js';
import type { LogStore } from '../../src/storage/log-store.js';
import { MemoryLogStore } from '../../src/storage/memory/memory-store.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip, startTestBroker } from '../server/broker-harness.js';
import type { Broker } from '../../src/server/broker.js';

export interface DataBroker {
  broker: Broker & { port: number };
  store: LogStore;
  client: RawClient;
}

export async function withDataBroker(run: (b: DataBroker) => Promise<void>, settings: Record<string, string> = {}): Promise<void> {
  const store = new MemoryLogStore({ nodeId: 1 });
  const broker = await startTestBroker({ 'node.id': '1', ...settings }, { store });
  const client = await RawClient.connect(broker.port);
  try {
    await run({ broker, store, client });
  } finally {
    await client.close();
    await broker.close();
  }
}

export function batch(records: readonly Partial<RecordInput>[], extra: { compression?: number } = {}): Buffer {
  return encodeRecordBatch({
    ...extra,
    records: records.map((r) => ({ timestamp: r.timestamp ?? Date.now(), key: r.key ?? null, value: r.value ?? null, ...(r.headers ? { headers: r.headers } : {}) })),
  });
}

export function values(...texts: string[]): Partial<RecordInput>[] {
  return texts.map((t) => ({ value: Buffer.from(t) }));
}

export async function produce(client: RawClient, topic: string, partition: number, records: Buffer | null, opts: { acks?: number; version?: number } = {}): Promise<ProduceResponse> {
  return roundTrip(client, produceApi, opts.version ?? 9, {
    transactionalId: null,
    acks: opts.acks ?? -1,
    timeoutMs: 30_000,
    topicData: [{ topicId: ZERO_UUID, name: topic, partitionData: [{ index: partition, records }] }],
  });
}

export function fetchRequest(parts: { topic: string; topicId?: string; partition?: number; offset?: number; maxBytes?: number; currentLeaderEpoch?: number }[], extra: Partial<FetchRequest> = {}): FetchRequest {
  return {
    ...createFetchRequest(),
    maxWaitMs: 0,
    minBytes: 0,
    maxBytes: 50 * 1024 * 1024,
    ...extra,
    topics: parts.map((p) => ({
      topic: p.topic,
      topicId: p.topicId ?? 'AAAAAAAAAAAAAAAAAAAAAA',
      partitions: [{ ...createFetchPartition(), partition: p.partition ?? 0, fetchOffset: BigInt(p.offset ?? 0), partitionMaxBytes: p.maxBytes ?? 1024 * 1024, currentLeaderEpoch: p.currentLeaderEpoch ?? -1 }],
    })),
  };
}

export function fetch(client: RawClient, request: FetchRequest, version = 12): Promise<FetchResponse> {
  return roundTrip(client, fetchApi, version, request);
}

/** The records field of a decoded response: one Buffer. */
export function recordsOf(records: unknown): Buffer {
  return records as Buffer;
}
