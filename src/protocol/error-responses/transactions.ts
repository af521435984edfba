// Error responses of the transaction APIs.
import { addOffsetsToTxnApi, createAddOffsetsToTxnResponse } from '../generated/add-offsets-to-txn.js';
import { addPartitionsToTxnApi, createAddPartitionsToTxnResponse } from '../generated/add-partitions-to-txn.js';
import { createDescribeProducersResponse, createPartitionResponse, describeProducersApi } from '../generated/describe-producers.js';
import { createDescribeTransactionsResponse, createTransactionState, describeTransactionsApi } from '../generated/describe-transactions.js';
import { createEndTxnResponse, endTxnApi } from '../generated/end-txn.js';
import { createInitProducerIdResponse, initProducerIdApi } from '../generated/init-producer-id.js';
import { createListTransactionsResponse, listTransactionsApi } from '../generated/list-transactions.js';
import { createTxnOffsetCommitResponse, txnOffsetCommitApi } from '../generated/txn-offset-commit.js';
import { createWriteTxnMarkersResponse, writeTxnMarkersApi } from '../generated/write-txn-markers.js';
import { byTopic, errorResponse } from './define.js';

/** AddPartitionsToTxn v4 (sent by brokers) moved to batched transactions with a top-level error code. */
const ADD_PARTITIONS_BATCHED = 4;

export const transactionErrorResponses = [
  errorResponse(initProducerIdApi, (_request, _version, error) => ({
    ...createInitProducerIdResponse(), errorCode: error.code, producerId: -1n, producerEpoch: -1,
  })),

  errorResponse(addPartitionsToTxnApi, (request, version, error) => {
    const response = createAddPartitionsToTxnResponse();
    if (version >= ADD_PARTITIONS_BATCHED) {
      response.errorCode = error.code;
      return response;
    }
    response.resultsByTopicV3AndBelow = request.v3AndBelowTopics.map((topic) => ({
      name: topic.name,
      resultsByPartition: topic.partitions.map((partitionIndex) => ({ partitionIndex, partitionErrorCode: error.code })),
    }));
    return response;
  }),

  errorResponse(addOffsetsToTxnApi, (_request, _version, error) => ({ ...createAddOffsetsToTxnResponse(), errorCode: error.code })),

  errorResponse(endTxnApi, (_request, _version, error) => ({ ...createEndTxnResponse(), errorCode: error.code })),

  errorResponse(writeTxnMarkersApi, (request, _version, error) => ({
    ...createWriteTxnMarkersResponse(),
    markers: request.markers.map((marker) => ({
      producerId: marker.producerId,
      topics: [...byTopic(marker.topics.flatMap((t) => t.partitionIndexes.map((p) => [t.name, p] as const)))].map(([name, partitions]) => ({
        name,
        partitions: partitions.map((partitionIndex) => ({ partitionIndex, errorCode: error.code })),
      })),
    })),
  })),

  errorResponse(txnOffsetCommitApi, (request, _version, error) => ({
    ...createTxnOffsetCommitResponse(),
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((p) => ({ partitionIndex: p.partitionIndex, errorCode: error.code })),
    })),
  })),

  errorResponse(describeProducersApi, (request, _version, error) => ({
    ...createDescribeProducersResponse(),
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitionIndexes.map((partitionIndex) => ({ ...createPartitionResponse(), partitionIndex, errorCode: error.code })),
    })),
  })),

  errorResponse(describeTransactionsApi, (request, _version, error) => ({
    ...createDescribeTransactionsResponse(),
    transactionStates: request.transactionalIds.map((transactionalId) => ({ ...createTransactionState(), transactionalId, errorCode: error.code })),
  })),

  errorResponse(listTransactionsApi, (_request, _version, error) => ({ ...createListTransactionsResponse(), errorCode: error.code })),
];
