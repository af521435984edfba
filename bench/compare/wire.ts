// Workloads spoken straight on the wire with gregor's own codec, identical bytes to either broker:
// the start-up probe (first successful ApiVersions), Metadata timing, idle connections, and many producers at once.
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { performance } from 'node:perf_hooks';
import { apiVersionsApi, createApiVersionsRequest } from '../../src/protocol/generated/api-versions.js';
import { createMetadataRequest, metadataApi, type MetadataResponse } from '../../src/protocol/generated/metadata.js';
import { produceApi } from '../../src/protocol/generated/produce.js';
import { encodeRecordBatch } from '../../src/protocol/records/index.js';
import { decodeResponse, encodeRequest } from '../../test/server/broker-harness.js';
import { RawClient } from '../../test/server/raw-client.js';
import { percentile } from './stats.js';

const API_VERSIONS_VERSION = 3;
const METADATA_VERSION = 12;
const PRODUCE_VERSION = 9;

function apiVersionsFrame(correlationId: number): Buffer {
  const request = { ...createApiVersionsRequest(), clientSoftwareName: 'gregor-bench', clientSoftwareVersion: '1' };
  return encodeRequest(apiVersionsApi, API_VERSIONS_VERSION, request, correlationId, 'gregor-bench');
}

/** One ApiVersions round trip on a new connection; true when the broker answered without error. */
export async function apiVersionsOk(port: number): Promise<boolean> {
  let client: RawClient | undefined;
  try {
    client = await RawClient.connect(port);
    client.send(apiVersionsFrame(1));
    const { response } = decodeResponse(apiVersionsApi, API_VERSIONS_VERSION, await client.read());
    return response.errorCode === 0;
  } catch {
    return false;
  } finally {
    await client?.close();
  }
}

/** Polls until an ApiVersions succeeds; resolves with performance.now() at that moment. */
export async function waitForApiVersions(port: number, isAlive: () => boolean, limitMs = 180_000, pollMs = 5): Promise<number> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    if (await apiVersionsOk(port)) return performance.now();
    if (!isAlive()) throw new Error(`the broker on port ${port} exited before answering ApiVersions`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`no successful ApiVersions on port ${port} within ${limitMs / 1000} s`);
}

/** Median time of an all-topics Metadata request (ms), and how many partitions the answer listed. */
export async function timeMetadata(port: number, repeats: number): Promise<{ medianMs: number; partitions: number; bytes: number }> {
  const client = await RawClient.connect(port);
  try {
    const request = { ...createMetadataRequest(), topics: null, allowAutoTopicCreation: false };
    const times: number[] = [];
    let partitions = 0;
    let bytes = 0;
    for (let i = 0; i < repeats; i++) {
      const t0 = performance.now();
      client.send(encodeRequest(metadataApi, METADATA_VERSION, request, i + 1, 'gregor-bench'));
      const frame = await client.read();
      times.push(performance.now() - t0);
      const { response } = decodeResponse(metadataApi, METADATA_VERSION, frame);
      partitions = response.topics.reduce((sum, topic) => sum + topic.partitions.length, 0);
      bytes = frame.length;
    }
    return { medianMs: percentile(times, 50), partitions, bytes };
  } finally {
    await client.close();
  }
}

/** Partitions that have a leader now, over all topics. */
export async function countLedPartitions(port: number): Promise<number> {
  const client = await RawClient.connect(port);
  try {
    const request = { ...createMetadataRequest(), topics: null, allowAutoTopicCreation: false };
    client.send(encodeRequest(metadataApi, METADATA_VERSION, request, 1, 'gregor-bench'));
    return ledPartitions(decodeResponse(metadataApi, METADATA_VERSION, await client.read()).response);
  } finally {
    await client.close();
  }
}

function ledPartitions(response: MetadataResponse): number {
  let led = 0;
  for (const topic of response.topics) for (const p of topic.partitions) if (p.errorCode === 0 && p.leaderId >= 0) led++;
  return led;
}

/** Polls all-topics Metadata until at least `partitions` partitions have a leader (topic creation has settled). */
export async function waitForLeaders(port: number, partitions: number, limitMs = 300_000): Promise<void> {
  const client = await RawClient.connect(port);
  try {
    const request = { ...createMetadataRequest(), topics: null, allowAutoTopicCreation: false };
    const deadline = performance.now() + limitMs;
    for (let id = 1; ; id++) {
      client.send(encodeRequest(metadataApi, METADATA_VERSION, request, id, 'gregor-bench'));
      const { response } = decodeResponse(metadataApi, METADATA_VERSION, await client.read());
      const led = ledPartitions(response);
      if (led >= partitions) return;
      if (performance.now() > deadline) throw new Error(`only ${led} of ${partitions} partitions have a leader after ${limitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.close();
  }
}

/** Opens `count` connections, each completing one ApiVersions, and keeps them open until close() is called. */
export async function openIdleConnections(port: number, count: number): Promise<{ close(): Promise<void> }> {
  const clients: RawClient[] = [];
  const close = async () => {
    await Promise.all(clients.map((client) => client.close()));
  };
  try {
    // In waves, so the accept backlog is not the thing being measured.
    for (let start = 0; start < count; start += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, count - start) }, async () => {
          const client = await RawClient.connect(port);
          clients.push(client);
          client.send(apiVersionsFrame(1));
          decodeResponse(apiVersionsApi, API_VERSIONS_VERSION, await client.read());
        }),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}

export interface ManyProducersResult {
  /** Record bytes acknowledged per second over all connections, MB/s (10^6). */
  mbPerSecond: number;
  /** Produce request round-trip percentiles over every request, ms. */
  p50Ms: number;
  p99Ms: number;
}

/**
 * `connections` connections each send `requestsEach` Produce requests (acks=1, one at a time per connection) of
 * `recordsPerRequest` records of `recordSize` bytes to the partitions of `topic`, all connections at once.
 */
export async function manyProducers(port: number, topic: string, partitions: number, connections: number, requestsEach: number, recordsPerRequest = 10, recordSize = 1024): Promise<ManyProducersResult> {
  const value = Buffer.alloc(recordSize, 0x61);
  const batch = encodeRecordBatch({ records: Array.from({ length: recordsPerRequest }, () => ({ timestamp: Date.now(), key: null, value })) });
  const clients: RawClient[] = [];
  try {
    for (let start = 0; start < connections; start += 100) {
      const wave = await Promise.all(Array.from({ length: Math.min(100, connections - start) }, () => RawClient.connect(port)));
      clients.push(...wave);
    }
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        const frame = encodeRequest(
          produceApi,
          PRODUCE_VERSION,
          { transactionalId: null, acks: 1, timeoutMs: 30_000, topicData: [{ topicId: ZERO_UUID, name: topic, partitionData: [{ index: c % partitions, records: batch }] }] },
          1,
          'gregor-bench',
        );
        for (let i = 0; i < requestsEach; i++) {
          const sent = performance.now();
          client.send(frame);
          const { response } = decodeResponse(produceApi, PRODUCE_VERSION, await client.read());
          latencies.push(performance.now() - sent);
          const code = response.responses[0]?.partitionResponses[0]?.errorCode;
          if (code !== 0) throw new Error(`Produce to ${topic}-${c % partitions} answered error code ${code}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const bytes = connections * requestsEach * recordsPerRequest * recordSize;
    return { mbPerSecond: bytes / 1e6 / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}
