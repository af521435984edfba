// The broker's schema registry: its state read from `_schemas` at start-up, written through the produce path.
import type { ReplicaManager } from '../broker/replica-manager.js';
import type { Log } from '../log.js';
import { loadProviders } from './providers.js';
import { SchemaRegistry } from './registry.js';
import { SchemasTopic } from './schemas-topic.js';

export async function openSchemaRegistry(replicaManager: ReplicaManager, now: () => number, log: Log): Promise<SchemaRegistry> {
  return SchemaRegistry.open(new SchemasTopic(replicaManager, now), {
    providers: loadProviders,
    onBadRecord: (message) => log.warn(`Schema registry skipped an unreadable record: ${message}`),
  });
}
