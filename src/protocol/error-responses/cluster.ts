// Error responses of the cluster-description APIs.
import { ErrorCode } from '../error-codes.js';
import { apiVersionsApi, createApiVersionsResponse } from '../generated/api-versions.js';
import { createDescribeClusterResponse, describeClusterApi } from '../generated/describe-cluster.js';
import { createDescribeLogDirsResponse, describeLogDirsApi } from '../generated/describe-log-dirs.js';
import {
  createDescribeTopicPartitionsResponse, createDescribeTopicPartitionsResponseTopic, describeTopicPartitionsApi,
} from '../generated/describe-topic-partitions.js';
import { createMetadataResponse, createMetadataResponseTopic, metadataApi } from '../generated/metadata.js';
import { errorResponse } from './define.js';

export const clusterErrorResponses = [
  // Every requested topic, a null name as "" (the response has no null name before v12), not internal; v13+
  // also the top-level code.
  errorResponse(metadataApi, (request, _version, error) => ({
    ...createMetadataResponse(),
    errorCode: error.code,
    topics: (request.topics ?? []).map((topic) => ({
      ...createMetadataResponseTopic(),
      name: topic.name ?? '',
      topicId: topic.topicId,
      errorCode: error.code,
      isInternal: false,
    })),
  })),

  // KIP-511: an UNSUPPORTED_VERSION answer lists ApiVersions' own range so the client can retry.
  errorResponse(apiVersionsApi, (_request, _version, error) => ({
    ...createApiVersionsResponse(),
    errorCode: error.code,
    apiKeys: error.code === ErrorCode.UNSUPPORTED_VERSION
      ? [{ apiKey: apiVersionsApi.apiKey, minVersion: apiVersionsApi.minVersion, maxVersion: apiVersionsApi.maxVersion }]
      : [],
  })),

  errorResponse(describeClusterApi, (_request, _version, error) => ({
    ...createDescribeClusterResponse(),
    errorCode: error.code,
    errorMessage: error.message,
  })),

  errorResponse(describeTopicPartitionsApi, (request, _version, error) => ({
    ...createDescribeTopicPartitionsResponse(),
    topics: request.topics.map((topic) => ({
      ...createDescribeTopicPartitionsResponseTopic(),
      name: topic.name,
      errorCode: error.code,
      isInternal: false,
    })),
  })),

  // v0-2 have no top-level error code: the client sees no log dirs.
  errorResponse(describeLogDirsApi, (_request, _version, error) => ({ ...createDescribeLogDirsResponse(), errorCode: error.code })),
];
