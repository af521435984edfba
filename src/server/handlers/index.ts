/**
 * THE registry: the only place an API is registered. One handler per API key, each in its own
 * handlers/NN-api-name.ts with its version range; ApiVersions is derived from this list.
 */
import type { Handler } from '../handler.js';
import { produceHandler } from './00-produce.js';
import { fetchHandler } from './01-fetch.js';
import { listOffsetsHandler } from './02-list-offsets.js';
import { metadataHandler } from './03-metadata.js';
import { offsetCommitHandler } from './08-offset-commit.js';
import { offsetFetchHandler } from './09-offset-fetch.js';
import { findCoordinatorHandler } from './10-find-coordinator.js';
import { joinGroupHandler } from './11-join-group.js';
import { heartbeatHandler } from './12-heartbeat.js';
import { leaveGroupHandler } from './13-leave-group.js';
import { syncGroupHandler } from './14-sync-group.js';
import { describeGroupsHandler } from './15-describe-groups.js';
import { listGroupsHandler } from './16-list-groups.js';
import { apiVersionsHandler } from './18-api-versions.js';
import { createTopicsHandler } from './19-create-topics.js';
import { deleteTopicsHandler } from './20-delete-topics.js';
import { offsetForLeaderEpochHandler } from './23-offset-for-leader-epoch.js';
import { describeConfigsHandler } from './32-describe-configs.js';
import { alterConfigsHandler } from './33-alter-configs.js';
import { createPartitionsHandler } from './37-create-partitions.js';
import { deleteGroupsHandler } from './42-delete-groups.js';
import { incrementalAlterConfigsHandler } from './44-incremental-alter-configs.js';
import { deleteRecordsHandler } from './21-delete-records.js';
import { describeLogDirsHandler } from './35-describe-log-dirs.js';
import { electLeadersHandler } from './43-elect-leaders.js';
import { listPartitionReassignmentsHandler } from './46-list-partition-reassignments.js';
import { describeClusterHandler } from './60-describe-cluster.js';
import { describeTopicPartitionsHandler } from './75-describe-topic-partitions.js';
import { offsetDeleteHandler } from './47-offset-delete.js';
import { initProducerIdHandler } from './22-init-producer-id.js';
import { addPartitionsToTxnHandler } from './24-add-partitions-to-txn.js';
import { addOffsetsToTxnHandler } from './25-add-offsets-to-txn.js';
import { endTxnHandler } from './26-end-txn.js';
import { txnOffsetCommitHandler } from './28-txn-offset-commit.js';
import { writeTxnMarkersHandler } from './27-write-txn-markers.js';
import { describeProducersHandler } from './61-describe-producers.js';
import { describeTransactionsHandler } from './65-describe-transactions.js';
import { listTransactionsHandler } from './66-list-transactions.js';

export const handlers: readonly Handler[] = [
  produceHandler,
  fetchHandler,
  listOffsetsHandler,
  metadataHandler,
  offsetCommitHandler,
  offsetFetchHandler,
  findCoordinatorHandler,
  joinGroupHandler,
  heartbeatHandler,
  leaveGroupHandler,
  syncGroupHandler,
  describeGroupsHandler,
  listGroupsHandler,
  apiVersionsHandler,
  createTopicsHandler,
  deleteTopicsHandler,
  offsetForLeaderEpochHandler,
  describeConfigsHandler,
  alterConfigsHandler,
  createPartitionsHandler,
  deleteGroupsHandler,
  incrementalAlterConfigsHandler,
  deleteRecordsHandler,
  describeLogDirsHandler,
  electLeadersHandler,
  listPartitionReassignmentsHandler,
  describeClusterHandler,
  describeTopicPartitionsHandler,
  offsetDeleteHandler,
  initProducerIdHandler,
  addPartitionsToTxnHandler,
  addOffsetsToTxnHandler,
  endTxnHandler,
  txnOffsetCommitHandler,
  writeTxnMarkersHandler,
  describeProducersHandler,
  describeTransactionsHandler,
  listTransactionsHandler,
];
