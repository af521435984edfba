// The file engine's store: one log dir laid out as Kafka's (meta.properties, checkpoints, the
// clean-shutdown marker, `<topic>-<partition>/` dirs) plus gregor's `topics/` metadata files.

import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogConfig } from '../log-config.js';
import type { TopicMetadata } from '../log-store.js';
import { systemScheduler } from '../scheduler.js';
import { SerialQueue } from '../serial-queue.js';
import { StorageError } from '../errors.js';
import { forEachBounded, PARTITION_IO_CONCURRENCY } from '../bounded.js';
import { StoreCore, type StoreCoreOptions } from '../store-core.js';
import { FileCleanerStorage, type SwapStepHook } from './file-cleaner-storage.js';
import { syncDirectory, writeFileAtomic } from './atomic-file.js';
import { readOffsetCheckpoint, writeCheckpoint } from './checkpoint-file.js';
import { openFileLog, type FileLog } from './file-log.js';
import { IoFaults, partitionPlace } from './io-faults.js';
import type { FileSegment } from './file-segment.js';
import { LogDirLock } from './log-dir-lock.js';
import { ensureMetaProperties, type MetaProperties } from './meta-properties.js';
import {
  CLEAN_SHUTDOWN_FILE,
  DELETE_DIR_SUFFIX,
  LOG_START_CHECKPOINT,
  RECOVERY_POINT_CHECKPOINT,
  STRAY_DIR_SUFFIX,
  TOPICS_DIR,
  partitionDirName,
  setAsideDirName,
} from './segment-files.js';
import { flushPartitionMetadata, readPartitionMetadata, readTopicFiles, topicFilePath, writeTopicFile } from './topic-files.js';

/** partition.metadata files written per admin-queue job: a topic change queued meanwhile waits for one slice at most. */
const METADATA_FLUSH_SLICE = 128;

export interface FileLogStoreOptions extends Partial<Omit<StoreCoreOptions, 'nodeId'>> {
  logDir: string;
  nodeId: number;
  /**
   * Report problems found and repaired (malformed topic files, torn segments, partition dirs set aside or left
   * behind by a failed delete); defaults to ignoring them.
   */
  warn?: (message: string) => void;
  /** Report failed file I/O (a full disk, no descriptor left) and faults found at start-up; Kafka logs them at ERROR. */
  error?: (message: string) => void;
  /** Tests: called after each step of the cleaner's segment swap (crash tests kill the process there). */
  cleanerSwapStep?: SwapStepHook;
}

/** What opening the store found: proof of a clean start, or how much recovery ran. */
export interface StoreLoadStats {
  cleanShutdown: boolean;
  topics: number;
  partitions: number;
  segments: number;
  recoveredSegments: number;
  truncatedBytes: number;
  /** Bytes CRC-checked by recovery. */
  validatedBytes: number;
}

export class FileLogStore extends StoreCore<FileSegment> {
  readonly logDir: string;
  readonly meta: MetaProperties;
  readonly loadStats: StoreLoadStats;
  private readonly checkpointQueue = new SerialQueue();
  private logStartDirty = false;
  /** New partition dirs not yet made durable in the log dir. */
  private logDirUnsynced = false;
  /**
   * Partition dir → the topic id its partition.metadata must hold: written and fsynced in the background, off
   * the creation path (Kafka's flush-metadata-file), and before the clean-shutdown marker.
   */
  private readonly metadataPending = new Map<string, string>();
  private metadataFlushQueued = false;
  private recoveryPoints = new Map<string, number>();
  private logStarts = new Map<string, number>();
  private readonly swapStep: SwapStepHook | undefined;
  private readonly warn: (message: string) => void;
  private readonly faults: IoFaults;

  private constructor(
    options: FileLogStoreOptions,
    meta: MetaProperties,
    clean: boolean,
    private readonly lock: LogDirLock,
  ) {
    super({ ...options, clusterId: meta.clusterId, scheduler: options.scheduler ?? systemScheduler });
    this.logDir = options.logDir;
    this.meta = meta;
    this.loadStats = { cleanShutdown: clean, topics: 0, partitions: 0, segments: 0, recoveredSegments: 0, truncatedBytes: 0, validatedBytes: 0 };
    this.swapStep = options.cleanerSwapStep;
    this.warn = options.warn ?? (() => {});
    this.faults = new IoFaults(options.error, this.warn);
  }

  protected override cleanerStorage(): FileCleanerStorage {
    return new FileCleanerStorage(this.logDir, this.scheduler, this.swapStep, this.faults);
  }

  /** Locks the log dir (LogDirInUseError when another broker has it), then loads it. */
  static async open(options: FileLogStoreOptions): Promise<FileLogStore> {
    await mkdir(options.logDir, { recursive: true });
    const lock = await LogDirLock.acquire(options.logDir);
    try {
      return await FileLogStore.load(options, lock);
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  private static async load(options: FileLogStoreOptions, lock: LogDirLock): Promise<FileLogStore> {
    const { logDir } = options;
    await mkdir(join(logDir, TOPICS_DIR), { recursive: true });
    const meta = await ensureMetaProperties(logDir, options.nodeId, options.clusterId);
    const marker = join(logDir, CLEAN_SHUTDOWN_FILE);
    const clean = await exists(marker);
    const store = new FileLogStore(options, meta, clean, lock);
    store.recoveryPoints = await readOffsetCheckpoint(join(logDir, RECOVERY_POINT_CHECKPOINT));
    store.logStarts = await readOffsetCheckpoint(join(logDir, LOG_START_CHECKPOINT));
    await store.removeLeftoverDeletes();
    const topics = await readTopicFiles(logDir, (file, why) => options.warn?.(`skipping topic file ${file}: ${why}`));
    for (const topic of topics) await store.register(topic);
    store.loadStats.topics = topics.length;
    // From here on a crash must trigger recovery.
    if (clean) {
      await unlink(marker);
      await syncDirectory(logDir);
    }
    return store;
  }

  /** A failure (no space for the dir, no descriptor) is logged and answered KAFKA_STORAGE_ERROR, as a segment's. */
  protected openLog(topic: TopicMetadata, partition: number, config: LogConfig, created: boolean): Promise<FileLog> {
    const key = partitionDirName(topic.name, partition);
    const dir = join(this.logDir, key);
    return this.faults.run(created ? 'creating the log of' : 'loading', partitionPlace(dir), () => this.openPartitionLog(topic, partition, config, created, key, dir));
  }

  private async openPartitionLog(topic: TopicMetadata, partition: number, config: LogConfig, created: boolean, key: string, dir: string): Promise<FileLog> {
    // mkdir answers whether it created the dir: a new partition skips the listing and lookups.
    let fresh = (await mkdir(dir, { recursive: true })) !== undefined;
    let storedId = fresh ? undefined : await readPartitionMetadata(dir);
    // A dir already there for a new partition, or naming another topic id, is a deleted topic's data (its rename
    // or removal failed, or a crash came between): it is never served as this topic's.
    if (!fresh && (created || (storedId !== undefined && storedId !== topic.topicId))) {
      await this.setAsideStray(dir, topic.name, partition, storedId);
      await mkdir(dir);
      fresh = true;
      storedId = undefined;
    }
    const { log, stats } = await openFileLog({
      fresh,
      dir,
      topic: topic.name,
      partition,
      config,
      scheduler: this.scheduler,
      clean: this.loadStats.cleanShutdown && !fresh,
      recoveryPoint: this.recoveryPoints.get(key) ?? 0,
      logStartOffset: this.logStarts.get(key) ?? 0,
      logStartChanged: () => this.logStartMoved(),
      warn: this.warn,
      faults: this.faults,
    });
    if (storedId !== topic.topicId) this.metadataPending.set(dir, topic.topicId);
    if (fresh) this.logDirUnsynced = true;
    this.loadStats.partitions++;
    this.loadStats.segments += stats.segments;
    this.loadStats.recoveredSegments += stats.recoveredSegments;
    this.loadStats.truncatedBytes += stats.truncatedBytes;
    this.loadStats.validatedBytes += stats.validatedBytes;
    return log;
  }

  /** One fsync of the log dir for all the partition dirs just created. */
  protected override async afterOpenPartitions(): Promise<void> {
    if (this.logDirUnsynced) {
      this.logDirUnsynced = false;
      await syncDirectory(this.logDir);
    }
    this.queueMetadataFlush();
  }

  /**
   * The pending partition.metadata files, a slice per admin-queue job: topic changes queued meanwhile run first
   * (a CreateTopics of many topics answers before any of its files is flushed), and no delete or re-creation of
   * a topic interleaves with a write into its dirs.
   */
  private queueMetadataFlush(): void {
    if (this.metadataFlushQueued || this.metadataPending.size === 0) return;
    this.metadataFlushQueued = true;
    void this.adminQueue
      .run(async () => {
        this.metadataFlushQueued = false;
        if (this.closed) return;
        await this.flushMetadata(METADATA_FLUSH_SLICE);
        this.queueMetadataFlush();
      })
      .catch(() => undefined);
  }

  private async flushMetadata(limit = Infinity): Promise<void> {
    const slice: [string, string][] = [];
    for (const entry of this.metadataPending) {
      if (slice.length >= limit) break;
      slice.push(entry);
    }
    for (const [dir] of slice) this.metadataPending.delete(dir);
    await forEachBounded(slice, PARTITION_IO_CONCURRENCY, ([dir, topicId]) =>
      this.faults.run('writing the partition.metadata of', partitionPlace(dir), () => flushPartitionMetadata(dir, topicId)),
    );
  }

  protected async saveTopic(topic: TopicMetadata): Promise<void> {
    await this.faults.run('writing the topic file of', `${topic.name} in dir ${this.logDir}`, () => writeTopicFile(this.logDir, topic));
  }

  /**
   * Kafka's asynchronous delete: the topic file goes first (the topic no longer exists after a crash),
   * each partition dir is renamed `<topic>-<p>.<uuid>-delete` (the topic cut to fit 255 bytes) and removed
   * after file.delete.delay.ms. A dir that cannot be renamed is removed at once; the topic is deleted either way,
   * and whatever stays on disk is never served again (openLog sets it aside, a restart removes `-delete` dirs).
   */
  protected async dropTopic(topic: TopicMetadata): Promise<void> {
    await rm(topicFilePath(this.logDir, topic.name), { force: true });
    await syncDirectory(join(this.logDir, TOPICS_DIR));
    const doomed: string[] = [];
    for (let p = 0; p < topic.partitions; p++) {
      const dir = join(this.logDir, partitionDirName(topic.name, p));
      this.metadataPending.delete(dir);
      const target = join(this.logDir, setAsideDirName(topic.name, p, DELETE_DIR_SUFFIX));
      try {
        await rename(dir, target);
        doomed.push(target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        this.warn(`could not rename ${dir} to ${target} for deletion (${(err as Error).message}); deleting it now`);
        await this.removeDir(dir);
      }
    }
    await syncDirectory(this.logDir);
    const delay = this.logConfigFor(topic.configs).fileDeleteDelayMs;
    this.scheduler.after(delay, () => {
      for (const dir of doomed) void this.removeDir(dir);
    });
    this.logStartMoved();
  }

  /** Removes a deleted partition's dir; a failure is reported (a `-delete` dir is tried again at the next start). */
  private async removeDir(dir: string): Promise<void> {
    try {
      await rm(dir, { recursive: true, force: true });
    } catch (err) {
      this.warn(`could not delete ${dir}: ${(err as Error).message}`);
    }
  }

  /**
   * Kafka's stray log: a partition dir that is not the topic's own is renamed `<topic>-<p>.<uuid>-stray` and kept
   * for the operator, never loaded. If it cannot be moved, the partition does not open rather than serve it.
   */
  private async setAsideStray(dir: string, topic: string, partition: number, storedId: string | undefined): Promise<void> {
    const target = join(this.logDir, setAsideDirName(topic, partition, STRAY_DIR_SUFFIX));
    const why = storedId === undefined ? 'a dir of that name was already there' : `its partition.metadata names topic id ${storedId}`;
    try {
      await rename(dir, target);
    } catch (err) {
      throw new StorageError('KAFKA_STORAGE_ERROR', `${dir} is not this topic's (${why}) and could not be set aside: ${(err as Error).message}`);
    }
    await syncDirectory(this.logDir);
    this.warn(`partition ${topic}-${partition}: ${why}; it is not served and was renamed to ${target}`);
  }

  /** recovery-point-offset-checkpoint and log-start-offset-checkpoint for every open log. */
  protected override async checkpoint(): Promise<void> {
    await this.checkpointQueue.run(async () => {
      const logs = this.allLogs();
      await this.faults.run('writing the recovery point checkpoint', `in dir ${this.logDir}`, () =>
        writeCheckpoint(join(this.logDir, RECOVERY_POINT_CHECKPOINT), logs.map((l) => [l.topic, l.partition, l.recoveryPoint])),
      );
      await this.writeLogStarts();
    });
  }

  protected override async afterClose(): Promise<void> {
    await this.flushMetadata();
    await writeFileAtomic(join(this.logDir, CLEAN_SHUTDOWN_FILE), '');
  }

  /** Tests: leave the store as a crash would (nothing flushed, no clean-shutdown marker), its lock released as at exit. */
  async abandon(): Promise<void> {
    await this.lock.release();
  }

  /** After the clean-shutdown marker the log dir is free for the next broker; a failed close frees it too. */
  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      await this.lock.release();
    }
  }

  /** The start offset survives a crash: write it soon after it moves (coalesced). */
  private logStartMoved(): void {
    if (this.logStartDirty) return;
    this.logStartDirty = true;
    void this.checkpointQueue
      .run(async () => {
        if (!this.logStartDirty) return;
        await this.writeLogStarts();
      })
      .catch(() => undefined);
  }

  private async writeLogStarts(): Promise<void> {
    this.logStartDirty = false;
    const logs = this.allLogs();
    await this.faults.run('writing the log start offset checkpoint', `in dir ${this.logDir}`, () =>
      writeCheckpoint(join(this.logDir, LOG_START_CHECKPOINT), logs.map((l) => [l.topic, l.partition, l.logStartOffset])),
    );
  }

  /** Topic deletions interrupted by a restart finish now: a `-delete` dir is removed, never loaded. */
  private async removeLeftoverDeletes(): Promise<void> {
    for (const name of await readdir(this.logDir)) {
      if (!name.endsWith(DELETE_DIR_SUFFIX)) continue;
      this.warn(`deleting ${join(this.logDir, name)}: a deleted partition's dir, left by the last run`);
      await this.removeDir(join(this.logDir, name));
    }
  }

  /** Waits for pending checkpoint writes (tests and shutdown). */
  async settle(): Promise<void> {
    await this.checkpointQueue.idle();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
