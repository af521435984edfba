/**
 * RemoveRaftVoter (key 81), v0 (Kafka 4.3.1: 0).
 *
 * Answered as Kafka's KRaft leader answers on a single combined node with kraft.version 0 (admin/kraft-voters.ts):
 * a wrong cluster id is INCONSISTENT_CLUSTER_ID, a voter without an id or a directory id INVALID_REQUEST, and any
 * other voter (itself included) UNSUPPORTED_VERSION "Cluster doesn't support removing voter because the
 * kraft.version feature is 0".
 */
import {
  removeRaftVoterApi,
  type RemoveRaftVoterRequest,
  type RemoveRaftVoterResponse,
} from '../../protocol/generated/remove-raft-voter.js';
import { defineHandler, type Handler } from '../handler.js';
import { voterChangeRefusal } from '../admin/kraft-voters.js';

export const removeRaftVoterHandler: Handler = defineHandler<RemoveRaftVoterRequest, RemoveRaftVoterResponse>({
  api: removeRaftVoterApi,
  minVersion: 0,
  maxVersion: 0,

  handle(ctx, request) {
    return { throttleTimeMs: 0, ...voterChangeRefusal(ctx.broker, 'remove', request, false) };
  },
});
