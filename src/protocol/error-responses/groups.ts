// Error responses of the consumer-group and share-group APIs.
import { errorInfo } from '../error-codes.js';
import { createStreamsGroupDescribeResponse, createDescribedGroup as createStreamsDescribedGroup, streamsGroupDescribeApi } from '../generated/streams-group-describe.js';
import { createStreamsGroupHeartbeatResponse, streamsGroupHeartbeatApi } from '../generated/streams-group-heartbeat.js';
import { consumerGroupDescribeApi, createConsumerGroupDescribeResponse, createDescribedGroup as createConsumerDescribedGroup } from '../generated/consumer-group-describe.js';
import { consumerGroupHeartbeatApi, createConsumerGroupHeartbeatResponse } from '../generated/consumer-group-heartbeat.js';
import { createDeleteGroupsResponse, deleteGroupsApi } from '../generated/delete-groups.js';
import { createDescribedGroup, createDescribeGroupsResponse, describeGroupsApi } from '../generated/describe-groups.js';
import { createCoordinator, createFindCoordinatorResponse, findCoordinatorApi } from '../generated/find-coordinator.js';
import { createHeartbeatResponse, heartbeatApi } from '../generated/heartbeat.js';
import { createJoinGroupResponse, joinGroupApi } from '../generated/join-group.js';
import { createLeaveGroupResponse, leaveGroupApi } from '../generated/leave-group.js';
import { createListGroupsResponse, listGroupsApi } from '../generated/list-groups.js';
import { createOffsetCommitResponse, offsetCommitApi } from '../generated/offset-commit.js';
import { createOffsetDeleteResponse, offsetDeleteApi } from '../generated/offset-delete.js';
import { createOffsetFetchResponse, createOffsetFetchResponsePartition, offsetFetchApi } from '../generated/offset-fetch.js';
import { createSyncGroupResponse, syncGroupApi } from '../generated/sync-group.js';
import { createDescribedGroup as createShareDescribedGroup, createShareGroupDescribeResponse, shareGroupDescribeApi } from '../generated/share-group-describe.js';
import { createShareGroupHeartbeatResponse, shareGroupHeartbeatApi } from '../generated/share-group-heartbeat.js';
import { createShareFetchResponse, shareFetchApi } from '../generated/share-fetch.js';
import { createShareAcknowledgeResponse, shareAcknowledgeApi } from '../generated/share-acknowledge.js';
import { AUTHORIZED_OPERATIONS_OMITTED, errorResponse } from './define.js';

/** Node.noNode(): what a coordinator lookup that failed names. */
const NO_NODE = { nodeId: -1, host: '', port: -1 };
/** FindCoordinator v4 batched the keys. */
const FIND_COORDINATOR_BATCHED = 4;
/** JoinGroup v7 made the protocol name nullable: a failed join sends null. */
const JOIN_GROUP_NULL_PROTOCOL = 7;
/** OffsetFetch v2 added the top-level error code; v8 batched the groups. */
const OFFSET_FETCH_TOP_LEVEL_ERROR = 2;
const OFFSET_FETCH_BATCHED = 8;
const UNKNOWN_GENERATION_ID = -1;

export const groupErrorResponses = [
  errorResponse(offsetCommitApi, (request, _version, error) => ({
    ...createOffsetCommitResponse(),
    topics: request.topics.map((topic) => ({
      name: topic.name,
      topicId: topic.topicId,
      partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: error.code })),
    })),
  })),

  // v0-1 have only per-partition codes: each requested partition gets the error and no offset.
  errorResponse(offsetFetchApi, (request, version, error) => {
    const response = createOffsetFetchResponse();
    if (version >= OFFSET_FETCH_BATCHED) {
      response.groups = request.groups.map((group) => ({ groupId: group.groupId, topics: [], errorCode: error.code }));
      return response;
    }
    response.errorCode = error.code;
    if (version < OFFSET_FETCH_TOP_LEVEL_ERROR) {
      response.topics = (request.topics ?? []).map((topic) => ({
        name: topic.name,
        partitions: topic.partitionIndexes.map((partitionIndex) => ({
          ...createOffsetFetchResponsePartition(),
          partitionIndex,
          committedOffset: -1n,
          committedLeaderEpoch: -1,
          metadata: '',
          errorCode: error.code,
        })),
      }));
    }
    return response;
  }),

  // Kafka sends the code's default message and no node.
  errorResponse(findCoordinatorApi, (request, version, error) => {
    const errorMessage = errorInfo(error.code).message;
    if (version < FIND_COORDINATOR_BATCHED) return { ...createFindCoordinatorResponse(), ...NO_NODE, errorCode: error.code, errorMessage };
    return {
      ...createFindCoordinatorResponse(),
      coordinators: request.coordinatorKeys.map((key) => ({ ...createCoordinator(), ...NO_NODE, key, errorCode: error.code, errorMessage })),
    };
  }),

  errorResponse(joinGroupApi, (_request, version, error) => ({
    ...createJoinGroupResponse(),
    errorCode: error.code,
    generationId: UNKNOWN_GENERATION_ID,
    protocolName: version >= JOIN_GROUP_NULL_PROTOCOL ? null : '',
    leader: '',
    memberId: '',
    members: [],
  })),

  errorResponse(heartbeatApi, (_request, _version, error) => ({ ...createHeartbeatResponse(), errorCode: error.code })),

  errorResponse(leaveGroupApi, (_request, _version, error) => ({ ...createLeaveGroupResponse(), errorCode: error.code })),

  errorResponse(syncGroupApi, (_request, _version, error) => ({ ...createSyncGroupResponse(), errorCode: error.code, assignment: Buffer.alloc(0) })),

  errorResponse(describeGroupsApi, (request, _version, error) => ({
    ...createDescribeGroupsResponse(),
    groups: request.groups.map((groupId) => ({
      ...createDescribedGroup(),
      groupId,
      errorCode: error.code,
      groupState: '',
      protocolType: '',
      protocolData: '',
      members: [],
      authorizedOperations: AUTHORIZED_OPERATIONS_OMITTED,
    })),
  })),

  errorResponse(listGroupsApi, (_request, _version, error) => ({ ...createListGroupsResponse(), errorCode: error.code, groups: [] })),

  errorResponse(deleteGroupsApi, (request, _version, error) => ({
    ...createDeleteGroupsResponse(),
    results: request.groupsNames.map((groupId) => ({ groupId, errorCode: error.code })),
  })),

  errorResponse(offsetDeleteApi, (_request, _version, error) => ({ ...createOffsetDeleteResponse(), errorCode: error.code, topics: [] })),

  errorResponse(consumerGroupHeartbeatApi, (_request, _version, error) => ({ ...createConsumerGroupHeartbeatResponse(), errorCode: error.code })),

  errorResponse(consumerGroupDescribeApi, (request, _version, error) => ({
    ...createConsumerGroupDescribeResponse(),
    groups: request.groupIds.map((groupId) => ({ ...createConsumerDescribedGroup(), groupId, errorCode: error.code })),
  })),

  errorResponse(shareGroupHeartbeatApi, (_request, _version, error) => ({ ...createShareGroupHeartbeatResponse(), errorCode: error.code })),

  errorResponse(shareGroupDescribeApi, (request, _version, error) => ({
    ...createShareGroupDescribeResponse(),
    groups: request.groupIds.map((groupId) => ({ ...createShareDescribedGroup(), groupId, errorCode: error.code })),
  })),

  errorResponse(streamsGroupHeartbeatApi, (_request, _version, error) => ({ ...createStreamsGroupHeartbeatResponse(), errorCode: error.code, errorMessage: error.message })),

  errorResponse(streamsGroupDescribeApi, (request, _version, error) => ({
    ...createStreamsGroupDescribeResponse(),
    groups: request.groupIds.map((groupId) => ({ ...createStreamsDescribedGroup(), groupId, errorCode: error.code, errorMessage: error.message })),
  })),

  // ShareFetchRequest/ShareAcknowledgeRequest.getErrorResponse: the top-level error alone.
  errorResponse(shareFetchApi, (_request, _version, error) => ({ ...createShareFetchResponse(), errorCode: error.code })),
  errorResponse(shareAcknowledgeApi, (_request, _version, error) => ({ ...createShareAcknowledgeResponse(), errorCode: error.code })),
];
