// Error responses of the administration APIs: every named topic or config resource carries the error.
import { ErrorCode, errorInfo } from '../error-codes.js';
import { alterConfigsApi, createAlterConfigsResponse } from '../generated/alter-configs.js';
import { alterReplicaLogDirsApi, createAlterReplicaLogDirsResponse } from '../generated/alter-replica-log-dirs.js';
import { createCreatePartitionsResponse, createPartitionsApi } from '../generated/create-partitions.js';
import { createCreatableTopicResult, createCreateTopicsResponse, createTopicsApi } from '../generated/create-topics.js';
import { createDeletableTopicResult, createDeleteTopicsResponse, deleteTopicsApi } from '../generated/delete-topics.js';
import { alterClientQuotasApi, createAlterClientQuotasResponse } from '../generated/alter-client-quotas.js';
import { alterPartitionReassignmentsApi, createAlterPartitionReassignmentsResponse } from '../generated/alter-partition-reassignments.js';
import { createDescribeClientQuotasResponse, describeClientQuotasApi } from '../generated/describe-client-quotas.js';
import { createDescribeConfigsResponse, createDescribeConfigsResult, describeConfigsApi } from '../generated/describe-configs.js';
import { createElectLeadersResponse, electLeadersApi } from '../generated/elect-leaders.js';
import { createIncrementalAlterConfigsResponse, incrementalAlterConfigsApi } from '../generated/incremental-alter-configs.js';
import {
  createListPartitionReassignmentsResponse, createOngoingPartitionReassignment, listPartitionReassignmentsApi,
} from '../generated/list-partition-reassignments.js';
import { createListConfigResourcesResponse, listConfigResourcesApi } from '../generated/list-config-resources.js';
import { ZERO_UUID } from '../io/reader.js';
import { errorResponse } from './define.js';

/** DeleteTopics v6 names topics by id (or name) in `topics`; before, by name in `topicNames`. */
const DELETE_TOPICS_BY_ID = 6;
/** ElectLeaders v1 added the top-level error code. */
const ELECT_LEADERS_TOP_LEVEL_ERROR = 1;

export const adminErrorResponses = [
  errorResponse(createTopicsApi, (request, _version, error) => ({
    ...createCreateTopicsResponse(),
    topics: request.topics.map((topic) => ({ ...createCreatableTopicResult(), name: topic.name, errorCode: error.code, errorMessage: error.message })),
  })),

  errorResponse(deleteTopicsApi, (request, version, error) => {
    const topics = version >= DELETE_TOPICS_BY_ID ? request.topics : request.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
    return {
      ...createDeleteTopicsResponse(),
      responses: topics.map((topic) => ({ ...createDeletableTopicResult(), name: topic.name, topicId: topic.topicId, errorCode: error.code })),
    };
  }),

  // Kafka sends the code's default message here, whatever the exception said.
  errorResponse(describeConfigsApi, (request, _version, error) => ({
    ...createDescribeConfigsResponse(),
    results: request.resources.map((resource) => ({
      ...createDescribeConfigsResult(),
      resourceType: resource.resourceType,
      resourceName: resource.resourceName,
      errorCode: error.code,
      errorMessage: errorInfo(error.code).message,
    })),
  })),

  errorResponse(alterConfigsApi, (request, _version, error) => ({
    ...createAlterConfigsResponse(),
    responses: request.resources.map((resource) => ({
      resourceType: resource.resourceType, resourceName: resource.resourceName, errorCode: error.code, errorMessage: error.message,
    })),
  })),

  // Each dir's topics as the request names them (no merging), every partition with the error.
  errorResponse(alterReplicaLogDirsApi, (request, _version, error) => ({
    ...createAlterReplicaLogDirsResponse(),
    results: request.dirs.flatMap((dir) => dir.topics.map((topic) => ({
      topicName: topic.name,
      partitions: topic.partitions.map((partitionIndex) => ({ partitionIndex, errorCode: error.code })),
    }))),
  })),

  errorResponse(incrementalAlterConfigsApi, (request, _version, error) => ({
    ...createIncrementalAlterConfigsResponse(),
    responses: request.resources.map((resource) => ({
      resourceType: resource.resourceType, resourceName: resource.resourceName, errorCode: error.code, errorMessage: error.message,
    })),
  })),

  errorResponse(createPartitionsApi, (request, _version, error) => ({
    ...createCreatePartitionsResponse(),
    results: request.topics.map((topic) => ({ name: topic.name, errorCode: error.code, errorMessage: error.message })),
  })),

  errorResponse(electLeadersApi, (request, version, error) => ({
    ...createElectLeadersResponse(),
    errorCode: version >= ELECT_LEADERS_TOP_LEVEL_ERROR ? error.code : ErrorCode.NONE,
    replicaElectionResults: (request.topicPartitions ?? []).map((topic) => ({
      topic: topic.topic,
      partitionResult: topic.partitions.map((partitionId) => ({ partitionId, errorCode: error.code, errorMessage: error.message })),
    })),
  })),

  errorResponse(listPartitionReassignmentsApi, (request, _version, error) => ({
    ...createListPartitionReassignmentsResponse(),
    errorCode: error.code,
    errorMessage: error.message,
    topics: (request.topics ?? []).map((topic) => ({
      name: topic.name,
      partitions: topic.partitionIndexes.map((partitionIndex) => ({ ...createOngoingPartitionReassignment(), partitionIndex })),
    })),
  })),

  errorResponse(alterPartitionReassignmentsApi, (request, _version, error) => ({
    ...createAlterPartitionReassignmentsResponse(),
    errorCode: error.code,
    errorMessage: error.message,
    responses: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: error.code, errorMessage: error.message })),
    })),
  })),

  errorResponse(describeClientQuotasApi, (_request, _version, error) => ({
    ...createDescribeClientQuotasResponse(), errorCode: error.code, errorMessage: error.message, entries: null,
  })),

  // Kafka sends the code's default message here, whatever the exception said.
  errorResponse(alterClientQuotasApi, (request, _version, error) => ({
    ...createAlterClientQuotasResponse(),
    entries: request.entries.map((entry) => ({
      errorCode: error.code,
      errorMessage: errorInfo(error.code).message,
      entity: entry.entity.map((e) => ({ entityType: e.entityType, entityName: e.entityName })),
    })),
  })),

  errorResponse(listConfigResourcesApi, (_request, _version, error) => ({ ...createListConfigResourcesResponse(), errorCode: error.code })),
];
