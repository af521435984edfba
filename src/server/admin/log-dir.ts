/**
 * The one log directory gregor serves and reports (log.dirs' first, where the store keeps its data), named as Kafka
 * names a log dir: its absolute path. DescribeLogDirs lists it; AlterReplicaLogDirs accepts only it, compared as Kafka
 * compares (the exact string: a trailing slash or a relative form is another dir).
 */
import { resolve } from 'node:path';
import type { BrokerConfig } from '../../config/index.js';

export function servedLogDir(config: BrokerConfig): string {
  return resolve(config['log.dirs'][0] ?? '.');
}

/** cordoned.log.dirs (KIP-1066) names the dir, or is `*` (every dir). */
export function isCordoned(config: BrokerConfig, logDir: string): boolean {
  return config['cordoned.log.dirs'].some((dir) => dir === '*' || resolve(dir) === logDir);
}
