/**
 * OffsetFetch (key 9), v1–v9 (Kafka 4.3.1 serves 1–10; v10 names topics by id, beyond our spec).
 *
 * Committed offsets per partition; a partition without one gets offset -1, leader epoch -1 and
 * metadata "". A missing group is not an error (every partition -1, or no topics when all are asked).
 * Offsets are read once the group's pending commits are in the log. Versions:
 * - v1: topics listed. v2+: null topics = every partition the group has committed; top-level error code.
 * - v5+: leader epoch. v7+: require_stable: a partition with a transactional offset not yet committed or aborted
 *   answers UNSTABLE_OFFSET_COMMIT (per partition; the group's error code stays NONE), so the client retries.
 * - v8+: several groups in one request, each with its own error code. v9+: member id/epoch (consumer-protocol
 *   groups only; ignored for classic groups, as Kafka does).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import {
  offsetFetchApi,
  type OffsetFetchRequest,
  type OffsetFetchResponse,
  type OffsetFetchResponseGroup,
} from '../../protocol/generated/offset-fetch.js';
import { defineHandler, type Handler } from '../handler.js';

export const offsetFetchHandler: Handler = defineHandler<OffsetFetchRequest, OffsetFetchResponse>({
  api: offsetFetchApi,
  minVersion: 1,
  maxVersion: 9,

  async handle(ctx, request, version) {
    const groups = ctx.broker.groups;
    if (version >= 8) {
      const results: OffsetFetchResponseGroup[] = [];
      for (const group of request.groups) {
        const fetched = await groups.fetchOffsets(group.groupId, group.topics, request.requireStable);
        results.push({ groupId: group.groupId, errorCode: fetched.errorCode, topics: fetched.topics });
      }
      return { throttleTimeMs: 0, topics: [], errorCode: ErrorCode.NONE, groups: results };
    }
    const fetched = await groups.fetchOffsets(request.groupId, request.topics, version >= 7 && request.requireStable);
    const topics = fetched.topics.map((t) => ({
      name: t.name,
      // v0–v1 carry no top-level error: a group error goes on every partition.
      partitions: t.partitions.map((p) => (version < 2 && fetched.errorCode !== ErrorCode.NONE ? { ...p, errorCode: fetched.errorCode } : p)),
    }));
    return { throttleTimeMs: 0, topics, errorCode: fetched.errorCode, groups: [] };
  },
});
