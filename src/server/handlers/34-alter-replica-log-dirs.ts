/**
 * AlterReplicaLogDirs (key 34), v1–v2, Kafka 4.3.1's range.
 *
 * Moves replicas between the log dirs of one broker. gregor keeps every partition in its one log dir
 * (admin/log-dir.ts), so a move can only name the dir a replica is already in, which succeeds with nothing to do.
 * As Kafka's ReplicaManager.alterReplicaLogDirs answers, per partition (a partition named twice: its last dir),
 * checked in this order:
 * - INVALID_TOPIC_EXCEPTION when "<topic>-<partition>.<id>-future" (the dir a move would write) is longer than 255 characters;
 * - LOG_DIR_NOT_FOUND for a path that is not the served dir's exact absolute path;
 * - INVALID_REPLICA_ASSIGNMENT when cordoned.log.dirs cordons the dir (KIP-1066);
 * - UNKNOWN_TOPIC_OR_PARTITION for a partition this broker does not have; else NONE.
 * Results are grouped by topic, in the order the request first names each. v2: flexible versions.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  alterReplicaLogDirsApi,
  type AlterReplicaLogDirsRequest,
  type AlterReplicaLogDirsResponse,
} from '../../protocol/generated/alter-replica-log-dirs.js';
import { byTopic } from '../../protocol/error-responses/define.js';
import { isCordoned, servedLogDir } from '../admin/log-dir.js';
import { defineHandler, type Handler, type RequestContext } from '../handler.js';

/** A future replica's dir name: "<topic>-<partition>." + a 32-hex-digit id + "-future" (Kafka's LocalLog.logFutureDirName). */
const FUTURE_DIR_SUFFIX_LENGTH = 1 + 32 + '-future'.length;
const MAX_DIR_NAME_LENGTH = 255;

export const alterReplicaLogDirsHandler: Handler = defineHandler<AlterReplicaLogDirsRequest, AlterReplicaLogDirsResponse>({
  api: alterReplicaLogDirsApi,
  minVersion: 1,
  maxVersion: 2,

  handle(ctx, request) {
    const destinations = requestedDirs(request);
    const results = byTopic([...destinations].map(([key, dir]) => {
      const [topic, partition] = key;
      return [topic, { partitionIndex: partition, errorCode: moveError(ctx, topic, partition, dir) }] as const;
    }));
    return {
      throttleTimeMs: 0,
      results: [...results].map(([topicName, partitions]) => ({ topicName, partitions })),
    };
  },
});

/** Each partition's destination (the last dir naming it wins), keyed in first-named order. */
function requestedDirs(request: AlterReplicaLogDirsRequest): Map<readonly [string, number], string> {
  const keys = new Map<string, readonly [string, number]>();
  const dirs = new Map<readonly [string, number], string>();
  for (const dir of request.dirs) {
    for (const topic of dir.topics) {
      for (const partition of topic.partitions) {
        const id = `${topic.name}\u0000${partition}`;
        let key = keys.get(id);
        if (key === undefined) keys.set(id, (key = [topic.name, partition]));
        dirs.set(key, dir.path);
      }
    }
  }
  return dirs;
}

function moveError(ctx: RequestContext, topic: string, partition: number, dir: string): number {
  const { config, replicaManager } = ctx.broker;
  if (`${topic}-${partition}`.length + FUTURE_DIR_SUFFIX_LENGTH > MAX_DIR_NAME_LENGTH) return ErrorCode.INVALID_TOPIC_EXCEPTION;
  if (dir !== servedLogDir(config)) return ErrorCode.LOG_DIR_NOT_FOUND;
  if (isCordoned(config, dir)) return ErrorCode.INVALID_REPLICA_ASSIGNMENT;
  const found = replicaManager.partition(topic, partition);
  return found.ok ? ErrorCode.NONE : found.errorCode;
}
