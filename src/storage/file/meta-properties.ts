// meta.properties at the top of a log dir, as a KRaft broker writes it: version=1, cluster.id, node.id,
// directory.id, in Java properties syntax.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { randomUuid } from '../topic-id.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';
import {
  CLEAN_SHUTDOWN_FILE,
  LOG_START_CHECKPOINT,
  META_PROPERTIES,
  RECOVERY_POINT_CHECKPOINT,
  TOPICS_DIR,
  parsePartitionDirName,
} from './segment-files.js';

export interface MetaProperties {
  clusterId: string;
  nodeId: number;
  directoryId: string;
}

export function parseProperties(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const eq = line.indexOf('=');
    if (eq > 0) out.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return out;
}

export async function writeMetaProperties(logDir: string, meta: MetaProperties): Promise<void> {
  const lines = [
    '#',
    `#${new Date().toUTCString()}`,
    `cluster.id=${meta.clusterId}`,
    `directory.id=${meta.directoryId}`,
    `node.id=${meta.nodeId}`,
    'version=1',
  ];
  await writeFileAtomic(join(logDir, META_PROPERTIES), lines.join('\n') + '\n');
}

/**
 * Read the log dir's identity, writing it on first use. A stored node.id or cluster.id that differs from
 * the configured one is refused, as Kafka refuses to start on another broker's or cluster's log dir; so is a dir
 * holding data without meta.properties (Kafka: "No readable meta.properties files found."): a new cluster id
 * there would serve the old data under another cluster's name.
 */
export async function ensureMetaProperties(logDir: string, nodeId: number, clusterId?: string): Promise<MetaProperties> {
  const text = await readTextIfExists(join(logDir, META_PROPERTIES));
  if (text === undefined) {
    const data = await dataIn(logDir);
    if (data !== undefined) {
      throw new StorageError(
        'KAFKA_STORAGE_ERROR',
        `log dir ${logDir} holds data (${data}) but no ${META_PROPERTIES}: its cluster id is lost. ` +
          `Restore ${join(logDir, META_PROPERTIES)}, or empty the dir to start a new cluster`,
      );
    }
    const meta = { clusterId: clusterId ?? randomUuid(), nodeId, directoryId: randomUuid() };
    await writeMetaProperties(logDir, meta);
    return meta;
  }
  const props = parseProperties(text);
  const storedNode = Number(props.get('node.id'));
  const storedCluster = props.get('cluster.id');
  if (props.get('version') !== '1' || !Number.isInteger(storedNode) || storedCluster === undefined) {
    throw new StorageError('KAFKA_STORAGE_ERROR', `${join(logDir, META_PROPERTIES)} is not a version 1 meta.properties`);
  }
  if (storedNode !== nodeId) {
    throw new StorageError('KAFKA_STORAGE_ERROR', `log dir ${logDir} belongs to node.id ${storedNode}, not ${nodeId}`);
  }
  if (clusterId !== undefined && clusterId !== storedCluster) {
    throw new StorageError('INCONSISTENT_CLUSTER_ID', `log dir ${logDir} belongs to cluster ${storedCluster}, not ${clusterId}`);
  }
  const directoryId = props.get('directory.id') ?? randomUuid();
  if (!props.has('directory.id')) await writeMetaProperties(logDir, { clusterId: storedCluster, nodeId, directoryId });
  return { clusterId: storedCluster, nodeId, directoryId };
}

/** A file of a previous run in the log dir (a partition dir, a topic file, a checkpoint), else undefined. */
async function dataIn(logDir: string): Promise<string | undefined> {
  const entries = await readdir(logDir, { withFileTypes: true });
  // Partition dirs first: they name the data best.
  entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name === TOPICS_DIR) {
      const topicFiles = await readdir(join(logDir, TOPICS_DIR));
      if (topicFiles.length > 0) return join(TOPICS_DIR, topicFiles[0]!);
    } else if (entry.isDirectory() ? parsePartitionDirName(entry.name.replace(SET_ASIDE, '')) !== undefined : PREVIOUS_RUN_FILES.has(entry.name)) {
      return entry.name;
    }
  }
  return undefined;
}

const PREVIOUS_RUN_FILES = new Set([RECOVERY_POINT_CHECKPOINT, LOG_START_CHECKPOINT, CLEAN_SHUTDOWN_FILE]);
/** What setAsideDirName appends to a partition dir's name. */
const SET_ASIDE = /\.[0-9a-f]{32}-(delete|stray)$/;
