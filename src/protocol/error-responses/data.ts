// Error responses of the data-path APIs: every requested partition carries the error.
import { createDeleteRecordsResponse, deleteRecordsApi } from '../generated/delete-records.js';
import { createFetchResponse, createPartitionData, fetchApi } from '../generated/fetch.js';
import { createListOffsetsPartitionResponse, createListOffsetsResponse, listOffsetsApi } from '../generated/list-offsets.js';
import { createEpochEndOffset, createOffsetForLeaderEpochResponse, offsetForLeaderEpochApi } from '../generated/offset-for-leader-epoch.js';
import { createPartitionProduceResponse, createProduceResponse, produceApi, type PartitionProduceResponse } from '../generated/produce.js';
import { errorResponse } from './define.js';

/** Kafka's "no offset" / "no timestamp" / "no epoch" markers in these responses. */
const NO_OFFSET = -1n;
const NO_EPOCH = -1;
/** Fetch v13 moved the error to the top level alone. */
const FETCH_TOP_LEVEL_ERROR_ONLY = 13;

export const dataErrorResponses = [
  // acks=0: the client reads no response, so Kafka closes the connection instead.
  errorResponse(produceApi, (request, _version, error) => {
    if (request.acks === 0) return null;
    // One entry per topic, named as asked: by name before v13, by id from v13 (the name is then empty).
    const topics = new Map<string, { name: string; topicId: string; indexes: number[] }>();
    for (const topic of request.topicData) {
      const key = `${topic.topicId} ${topic.name}`;
      const entry = topics.get(key) ?? { name: topic.name, topicId: topic.topicId, indexes: [] };
      topics.set(key, entry);
      entry.indexes.push(...topic.partitionData.map((p) => p.index));
    }
    const response = createProduceResponse();
    for (const { name, topicId, indexes } of topics.values()) {
      response.responses.push({
        name,
        topicId,
        partitionResponses: indexes.map((index): PartitionProduceResponse => ({
          ...createPartitionProduceResponse(),
          index,
          errorCode: error.code,
          errorMessage: error.message,
          baseOffset: NO_OFFSET,
          logAppendTimeMs: NO_OFFSET,
          logStartOffset: NO_OFFSET,
        })),
      });
    }
    return response;
  }),

  errorResponse(fetchApi, (request, version, error) => {
    const response = { ...createFetchResponse(), errorCode: error.code, sessionId: request.sessionId };
    if (version < FETCH_TOP_LEVEL_ERROR_ONLY) {
      response.responses = request.topics.map((topic) => ({
        topic: topic.topic,
        topicId: topic.topicId,
        partitions: topic.partitions.map((p) => ({ ...createPartitionData(), partitionIndex: p.partition, errorCode: error.code, highWatermark: NO_OFFSET })),
      }));
    }
    return response;
  }),

  errorResponse(listOffsetsApi, (request, _version, error) => ({
    ...createListOffsetsResponse(),
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((p) => ({
        ...createListOffsetsPartitionResponse(),
        partitionIndex: p.partitionIndex,
        errorCode: error.code,
        offset: NO_OFFSET,
        timestamp: NO_OFFSET,
      })),
    })),
  })),

  errorResponse(deleteRecordsApi, (request, _version, error) => ({
    ...createDeleteRecordsResponse(),
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: error.code, lowWatermark: NO_OFFSET })),
    })),
  })),

  errorResponse(offsetForLeaderEpochApi, (request, _version, error) => ({
    ...createOffsetForLeaderEpochResponse(),
    topics: request.topics.map((topic) => ({
      topic: topic.topic,
      partitions: topic.partitions.map((p) => ({
        ...createEpochEndOffset(),
        partition: p.partition,
        errorCode: error.code,
        leaderEpoch: NO_EPOCH,
        endOffset: NO_OFFSET,
      })),
    })),
  })),
];
