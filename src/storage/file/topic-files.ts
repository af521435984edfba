// Topic metadata on disk. Kafka keeps topics and their configs in the controller's metadata log; gregor
// keeps one JSON file per topic under `<log.dir>/topics/`, replaced atomically. Each partition dir also
// gets Kafka's own `partition.metadata` (version 0, topic_id) so an operator can match dirs to ids.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TopicMetadata } from '../log-store.js';
import { isUuid } from '../topic-id.js';
import { readTextIfExists, syncDirectory, writeFileAtomic } from './atomic-file.js';
import { withShortLivedFile } from './segment-file-pool.js';
import { PARTITION_METADATA, TOPICS_DIR } from './segment-files.js';

const FILE_VERSION = 0;

export function topicFilePath(logDir: string, name: string): string {
  return join(logDir, TOPICS_DIR, `${name}.json`);
}

/**
 * Written through `<name>.tmp`: `<name>.json.tmp` would pass 255 bytes for names of 247 characters or more,
 * and a name that does not end in `.json` is never read as a topic file.
 */
export async function writeTopicFile(logDir: string, topic: TopicMetadata): Promise<void> {
  const body = { version: FILE_VERSION, name: topic.name, topicId: topic.topicId, partitions: topic.partitions, configs: topic.configs };
  await writeFileAtomic(topicFilePath(logDir, topic.name), JSON.stringify(body, null, 2) + '\n', join(logDir, TOPICS_DIR, `${topic.name}.tmp`));
}

/** Every well-formed topic file; a malformed one is reported through `onBad` and skipped. */
export async function readTopicFiles(logDir: string, onBad: (file: string, why: string) => void): Promise<TopicMetadata[]> {
  const dir = join(logDir, TOPICS_DIR);
  const out: TopicMetadata[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
    const text = await readTextIfExists(join(dir, file));
    if (text === undefined) continue;
    try {
      const t = JSON.parse(text) as Partial<TopicMetadata> & { version?: number };
      const configs = t.configs ?? {};
      const valid =
        t.version === FILE_VERSION &&
        typeof t.name === 'string' &&
        `${t.name}.json` === file &&
        typeof t.topicId === 'string' &&
        isUuid(t.topicId) &&
        Number.isInteger(t.partitions) &&
        (t.partitions ?? 0) > 0 &&
        typeof configs === 'object' &&
        Object.values(configs).every((v) => typeof v === 'string');
      if (!valid) throw new Error('unexpected contents');
      out.push({ name: t.name!, topicId: t.topicId!, partitions: t.partitions!, configs: { ...configs } });
    } catch (err) {
      onBad(file, (err as Error).message);
    }
  }
  return out;
}

/**
 * Writes and fsyncs a partition dir's partition.metadata and fsyncs the dir, as Kafka's scheduled
 * flush-metadata-file does, but in place: a torn or lost file after a crash reads as no topic id and is
 * written again from the topic file, which is durable. A dir gone meanwhile (deleted topic) is skipped.
 */
export async function flushPartitionMetadata(partitionDir: string, topicId: string): Promise<void> {
  try {
    await withShortLivedFile(join(partitionDir, PARTITION_METADATA), 'w', async (file) => {
      await file.writeFile(`version: 0\ntopic_id: ${topicId}\n`, 'utf8');
      await file.sync();
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    await syncDirectory(partitionDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** The topic id in a partition dir's partition.metadata, or undefined. */
export async function readPartitionMetadata(partitionDir: string): Promise<string | undefined> {
  const text = await readTextIfExists(join(partitionDir, PARTITION_METADATA));
  const match = text === undefined ? null : /^topic_id:\s*(\S+)\s*$/m.exec(text);
  return match?.[1];
}
