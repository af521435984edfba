/**
 * DescribeLogDirs (key 35), v1–v5, Kafka 4.3.1's range.
 *
 * One log directory, log.dirs' first (where the store keeps its data; admin/log-dir.ts), with the size of each partition
 * of the topics asked for (null: all), offset lag 0 (nothing to catch up with) and no future replicas.
 * Unknown topics and partitions are left out, as Kafka does. v4+: the directory's total and usable
 * bytes (-1 when the file system cannot say). v5+: is_cordoned (KIP-1066), true when cordoned.log.dirs names the dir
 * or is `*`, as Kafka 4.3.1 reports it.
 */
import { statfsSync } from 'node:fs';
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  describeLogDirsApi,
  type DescribeLogDirsRequest,
  type DescribeLogDirsResponse,
  type DescribeLogDirsTopic,
} from '../../protocol/generated/describe-log-dirs.js';
import { isCordoned, servedLogDir } from '../admin/log-dir.js';
import { defineHandler, type Handler } from '../handler.js';
import { AclOperation, authorizeCluster } from '../authorization.js';

const UNKNOWN_BYTES = -1n;

export const describeLogDirsHandler: Handler = defineHandler<DescribeLogDirsRequest, DescribeLogDirsResponse>({
  api: describeLogDirsApi,
  minVersion: 1,
  maxVersion: 5,

  handle(ctx, request) {
    const { store, config } = ctx.broker;
    // Without DESCRIBE on the cluster: no log dir, CLUSTER_AUTHORIZATION_FAILED at the top (KafkaApis).
    if (!authorizeCluster(ctx, AclOperation.DESCRIBE)) return { throttleTimeMs: 0, errorCode: ErrorCode.CLUSTER_AUTHORIZATION_FAILED, results: [] };
    const logDir = servedLogDir(config);
    const wanted = request.topics === null ? null : new Map(request.topics.map((t) => [t.topic, new Set(t.partitions)]));
    const topics: DescribeLogDirsTopic[] = [];
    for (const topic of store.topics().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const partitionFilter = wanted === null ? null : wanted.get(topic.name);
      if (partitionFilter === undefined) continue;
      const partitions = [];
      for (let p = 0; p < topic.partitions; p++) {
        if (partitionFilter !== null && !partitionFilter.has(p)) continue;
        const log = store.log(topic.name, p);
        if (log === undefined) continue;
        partitions.push({ partitionIndex: p, partitionSize: BigInt(log.sizeInBytes()), offsetLag: 0n, isFutureKey: false });
      }
      if (partitions.length > 0) topics.push({ name: topic.name, partitions });
    }
    const space = diskSpace(logDir);
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      results: [{ errorCode: ErrorCode.NONE, logDir, topics, totalBytes: space.total, usableBytes: space.usable, isCordoned: isCordoned(config, logDir) }],
    };
  },
});

function diskSpace(dir: string): { total: bigint; usable: bigint } {
  try {
    const stats = statfsSync(dir, { bigint: true });
    return { total: stats.blocks * stats.bsize, usable: stats.bavail * stats.bsize };
  } catch {
    return { total: UNKNOWN_BYTES, usable: UNKNOWN_BYTES };
  }
}
