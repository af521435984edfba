// Topic set-up for the workloads through kafkajs's admin client (CreateTopics), the same requests to both brokers.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import kafkajsPackage from 'kafkajs';
import { countLedPartitions, waitForLeaders } from './wire.js';

const { Kafka, logLevel } = kafkajsPackage;

export interface TopicSpec {
  name: string;
  partitions: number;
}

/**
 * Creates the topics (replication factor 1), a few per request so a 10,000-partition set-up stays within timeouts,
 * and returns once every new partition has a leader in Metadata (kafkajs's own wait gives up on Kafka under load).
 */
export async function createTopics(bootstrap: string, topics: readonly TopicSpec[], perRequest = 10): Promise<void> {
  const port = Number(bootstrap.slice(bootstrap.lastIndexOf(':') + 1));
  const before = await countLedPartitions(port);
  const admin = new Kafka({ clientId: 'gregor-bench', brokers: [bootstrap], logLevel: logLevel.NOTHING, requestTimeout: 120_000 }).admin();
  await admin.connect();
  try {
    for (let i = 0; i < topics.length; i += perRequest) {
      const slice = topics.slice(i, i + perRequest).map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor: 1 }));
      await admin.createTopics({ topics: slice, waitForLeaders: false, timeout: 120_000 });
    }
  } finally {
    await admin.disconnect();
  }
  await waitForLeaders(port, before + topics.reduce((sum, t) => sum + t.partitions, 0));
}

/** Deletes the topics (their files go after the broker's file.delete.delay.ms, 60 s by default on both). */
export async function deleteTopics(bootstrap: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const admin = new Kafka({ clientId: 'gregor-bench', brokers: [bootstrap], logLevel: logLevel.NOTHING, requestTimeout: 120_000 }).admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [...names], timeout: 120_000 });
  } finally {
    await admin.disconnect();
  }
}

/** Bytes the directory's files occupy on disk (allocated blocks, so sparse preallocated indexes count as used). */
export function diskUsage(dir: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of entries) {
    const path = join(dir, name);
    try {
      const info = statSync(path);
      total += info.isDirectory() ? diskUsage(path) : info.blocks * 512;
    } catch {
      // Deleted while walking (segment cleanup); not part of the data any more.
    }
  }
  return total;
}
