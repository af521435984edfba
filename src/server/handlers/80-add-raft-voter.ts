/**
 * AddRaftVoter (key 80), v0–v1 (Kafka 4.3.1: 0–1).
 *
 * Answered as Kafka's KRaft leader answers on a single combined node with kraft.version 0 (admin/kraft-voters.ts):
 * a wrong cluster id is INCONSISTENT_CLUSTER_ID, a voter without an id or a directory id INVALID_REQUEST, and any
 * other voter UNSUPPORTED_VERSION "Cluster doesn't support adding voter because the kraft.version feature is 0".
 * v1 adds ackWhenCommitted, which changes nothing before a voter could be added.
 */
import {
  addRaftVoterApi,
  type AddRaftVoterRequest,
  type AddRaftVoterResponse,
} from '../../protocol/generated/add-raft-voter.js';
import { defineHandler, type Handler } from '../handler.js';
import { voterChangeRefusal } from '../admin/kraft-voters.js';

export const addRaftVoterHandler: Handler = defineHandler<AddRaftVoterRequest, AddRaftVoterResponse>({
  api: addRaftVoterApi,
  minVersion: 0,
  maxVersion: 1,

  handle(ctx, request) {
    return { throttleTimeMs: 0, ...voterChangeRefusal(ctx.broker, 'add', request, request.listeners.length === 0) };
  },
});
