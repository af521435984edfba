// meta.properties at the top of a log dir, as a KRaft broker writes it: version=1, cluster.id, node.id,
// directory.id, in Java properties syntax.
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { randomUuid } from '../topic-id.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';
import { META_PROPERTIES } from './segment-files.js';

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
 * the configured one is refused, as Kafka refuses to start on another broker's or cluster's log dir.
 */
export async function ensureMetaProperties(logDir: string, nodeId: number, clusterId?: string): Promise<MetaProperties> {
  const text = await readTextIfExists(join(logDir, META_PROPERTIES));
  if (text === undefined) {
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
