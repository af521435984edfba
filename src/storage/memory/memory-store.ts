// The in-memory store (--in-memory, tests): topics and logs live only as long as the process.

import { randomUuid } from '../topic-id.js';
import type { LogConfig } from '../log-config.js';
import type { TopicMetadata } from '../log-store.js';
import { systemScheduler } from '../scheduler.js';
import { StoreCore, type StoreCoreOptions } from '../store-core.js';
import { MemoryCleanerStorage } from './memory-cleaner-storage.js';
import { createMemoryLog, type MemoryLog } from './memory-log.js';
import type { MemorySegment } from './memory-segment.js';

export type MemoryLogStoreOptions = Partial<StoreCoreOptions> & { nodeId: number };

export class MemoryLogStore extends StoreCore<MemorySegment> {
  constructor(options: MemoryLogStoreOptions) {
    super({ ...options, clusterId: options.clusterId ?? randomUuid(), scheduler: options.scheduler ?? systemScheduler });
  }

  protected async openLog(topic: TopicMetadata, partition: number, config: LogConfig): Promise<MemoryLog> {
    return createMemoryLog(topic.name, partition, config, this.scheduler);
  }
  protected override cleanerStorage(): MemoryCleanerStorage {
    return new MemoryCleanerStorage();
  }
  protected async saveTopic(): Promise<void> {}
  protected async dropTopic(): Promise<void> {}
}
