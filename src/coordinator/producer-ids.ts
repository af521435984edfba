// Producer id allocation (Kafka's ProducerIdManager): ids are handed out from blocks of 1000, and the end of
// the current block is made durable before any id in it is used, so no id is handed out twice, even after a
// crash (a restart skips the rest of the block, as Kafka's controller does). The file engine keeps the next
// block's start in <log dir>/producer-ids; the memory engine keeps it in memory; in cluster mode every broker
// reserves its blocks from one counter in etcd (src/cluster/etcd-producer-ids.ts), as Kafka's brokers ask their
// controller (AllocateProducerIds), so no two brokers hand out the same id.
import { join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../storage/file/atomic-file.js';
import type { LogStore } from '../storage/log-store.js';

/** Kafka's ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE. */
export const PRODUCER_ID_BLOCK_SIZE = 1000;
export const PRODUCER_IDS_FILE = 'producer-ids';

/** Where blocks are reserved: each reservation durable before its ids are used, none handed out twice. */
export interface ProducerIdBlockStore {
  /** Reserves the next block of `size` ids and answers its first id. */
  reserve(size: number): Promise<number>;
}

/** A store that keeps the next block's start (read, then written past the block reserved), used by one broker alone. */
abstract class CounterBlockStore implements ProducerIdBlockStore {
  abstract read(): Promise<number>;
  abstract write(nextBlockStart: number): Promise<void>;
  async reserve(size: number): Promise<number> {
    const start = await this.read();
    await this.write(start + size);
    return start;
  }
}

export class MemoryBlockStore extends CounterBlockStore {
  constructor(private next = 0) {
    super();
  }
  read(): Promise<number> {
    return Promise.resolve(this.next);
  }
  write(nextBlockStart: number): Promise<void> {
    this.next = nextBlockStart;
    return Promise.resolve();
  }
}

export class FileBlockStore extends CounterBlockStore {
  constructor(private readonly path: string) {
    super();
  }
  async read(): Promise<number> {
    const text = await readTextIfExists(this.path);
    if (text === undefined) return 0;
    const value = Number(text.trim());
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${this.path}: not a producer id block start: ${JSON.stringify(text)}`);
    return value;
  }
  write(nextBlockStart: number): Promise<void> {
    return writeFileAtomic(this.path, `${nextBlockStart}\n`);
  }
}

/** The block store for a log store: a file beside the file engine's data, memory otherwise. */
export function blockStoreFor(store: LogStore): ProducerIdBlockStore {
  const logDir = (store as { logDir?: unknown }).logDir;
  return typeof logDir === 'string' ? new FileBlockStore(join(logDir, PRODUCER_IDS_FILE)) : new MemoryBlockStore();
}

export class ProducerIdManager {
  private next = 0;
  private blockEnd = 0;
  /** The block being reserved, shared by callers that run out at the same time. */
  private reserving: Promise<void> | undefined;

  constructor(private readonly blocks: ProducerIdBlockStore) {}

  /** Nothing to read ahead: the first id comes from a block reserved after every block handed out before. */
  async load(): Promise<void> {
    this.next = 0;
    this.blockEnd = 0;
  }

  /** The next unused producer id. */
  async generate(): Promise<number> {
    while (this.next >= this.blockEnd) {
      this.reserving ??= this.reserveBlock().finally(() => (this.reserving = undefined));
      await this.reserving;
    }
    return this.next++;
  }

  private async reserveBlock(): Promise<void> {
    const start = await this.blocks.reserve(PRODUCER_ID_BLOCK_SIZE);
    this.next = start;
    this.blockEnd = start + PRODUCER_ID_BLOCK_SIZE;
  }
}
