// File names inside a log dir, as Kafka names them.
import { join } from 'node:path';
import { cryptoModule } from '../../lazy-modules.js';

export const LOG_SUFFIX = '.log';
export const INDEX_SUFFIX = '.index';
export const TIME_INDEX_SUFFIX = '.timeindex';
/** A segment's aborted transactions (txn-index.ts). */
export const TXN_INDEX_SUFFIX = '.txnindex';
/** A producer-state snapshot, named by the offset it was taken at (producer-snapshot.ts). */
export const SNAPSHOT_SUFFIX = '.snapshot';
export const DELETED_SUFFIX = '.deleted';
export const DELETE_DIR_SUFFIX = '-delete';
export const STRAY_DIR_SUFFIX = '-stray';
/** NAME_MAX of the file systems a log dir lives on; topic names are ASCII, so characters are bytes. */
const MAX_FILE_NAME_LENGTH = 255;
export const LEADER_EPOCH_CHECKPOINT = 'leader-epoch-checkpoint';
export const PARTITION_METADATA = 'partition.metadata';
export const RECOVERY_POINT_CHECKPOINT = 'recovery-point-offset-checkpoint';
export const LOG_START_CHECKPOINT = 'log-start-offset-checkpoint';
export const CLEAN_SHUTDOWN_FILE = '.kafka_cleanshutdown';
export const META_PROPERTIES = 'meta.properties';
/** Held locked while a broker has the log dir open (log-dir-lock.ts). */
export const LOCK_FILE = '.lock';
/** gregor's own: one JSON file per topic (Kafka keeps these in its metadata log). */
export const TOPICS_DIR = 'topics';

/** 20-digit zero-padded base offset: 00000000000000000042. */
export function offsetFileName(baseOffset: number): string {
  return String(baseOffset).padStart(20, '0');
}

export function segmentPaths(dir: string, baseOffset: number): { log: string; index: string; timeIndex: string } {
  const prefix = join(dir, offsetFileName(baseOffset));
  return { log: prefix + LOG_SUFFIX, index: prefix + INDEX_SUFFIX, timeIndex: prefix + TIME_INDEX_SUFFIX };
}

export function txnIndexPath(dir: string, baseOffset: number): string {
  return join(dir, offsetFileName(baseOffset) + TXN_INDEX_SUFFIX);
}

export function partitionDirName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

/**
 * Kafka's name for a partition dir set aside (LocalLog.logDirNameWithSuffixCappedLength):
 * `<topic>-<partition>.<uuid without dashes><suffix>`, the topic cut short so that the whole name fits in
 * 255 bytes (a 249-character topic's `-delete` name would otherwise be 291).
 */
export function setAsideDirName(topic: string, partition: number, suffix: string): string {
  const tail = `-${partition}.${cryptoModule().randomUUID().replaceAll('-', '')}${suffix}`;
  return topic.slice(0, Math.max(0, MAX_FILE_NAME_LENGTH - tail.length)) + tail;
}

/** `<topic>-<partition>` → its parts; undefined for anything else. */
export function parsePartitionDirName(name: string): { topic: string; partition: number } | undefined {
  const dash = name.lastIndexOf('-');
  if (dash <= 0) return undefined;
  const digits = name.slice(dash + 1);
  if (!/^\d+$/.test(digits)) return undefined;
  return { topic: name.slice(0, dash), partition: Number(digits) };
}

/** Base offset of a `<20 digits>.log` file name, or undefined. */
export function parseSegmentFileName(name: string, suffix: string): number | undefined {
  if (!name.endsWith(suffix)) return undefined;
  const stem = name.slice(0, -suffix.length);
  return /^\d{20}$/.test(stem) ? Number(stem) : undefined;
}
