/**
 * THE registry: the only place an API is registered. One handler per API key, each in its own
 * handlers/NN-api-name.ts with its version range; ApiVersions is derived from this list.
 *
 * The data-plane APIs a producer or consumer calls first are imported here. Every other API is a lazy
 * line: its key, name and served versions (which its handler must match; a test loads them all), and an
 * import() of its handler run on its first request, so an idle broker never loads or compiles their
 * handlers and codecs (the bundle puts each in a chunk of its own).
 */
import { lazyHandler, type RegisteredApi } from '../handler.js';
import { produceHandler } from './00-produce.js';
import { fetchHandler } from './01-fetch.js';
import { listOffsetsHandler } from './02-list-offsets.js';
import { metadataHandler } from './03-metadata.js';
import { apiVersionsHandler } from './18-api-versions.js';

export const handlers: readonly RegisteredApi[] = [
  produceHandler,
  fetchHandler,
  listOffsetsHandler,
  metadataHandler,
  apiVersionsHandler,
  lazyHandler(8, 'OffsetCommit', 2, 10, async () => (await import('./08-offset-commit.js')).offsetCommitHandler),
  lazyHandler(9, 'OffsetFetch', 1, 10, async () => (await import('./09-offset-fetch.js')).offsetFetchHandler),
  lazyHandler(10, 'FindCoordinator', 0, 6, async () => (await import('./10-find-coordinator.js')).findCoordinatorHandler),
  lazyHandler(11, 'JoinGroup', 0, 9, async () => (await import('./11-join-group.js')).joinGroupHandler),
  lazyHandler(12, 'Heartbeat', 0, 4, async () => (await import('./12-heartbeat.js')).heartbeatHandler),
  lazyHandler(13, 'LeaveGroup', 0, 5, async () => (await import('./13-leave-group.js')).leaveGroupHandler),
  lazyHandler(14, 'SyncGroup', 0, 5, async () => (await import('./14-sync-group.js')).syncGroupHandler),
  lazyHandler(15, 'DescribeGroups', 0, 6, async () => (await import('./15-describe-groups.js')).describeGroupsHandler),
  lazyHandler(16, 'ListGroups', 0, 5, async () => (await import('./16-list-groups.js')).listGroupsHandler),
  lazyHandler(17, 'SaslHandshake', 0, 1, async () => (await import('./17-sasl-handshake.js')).saslHandshakeHandler),
  lazyHandler(19, 'CreateTopics', 2, 7, async () => (await import('./19-create-topics.js')).createTopicsHandler),
  lazyHandler(20, 'DeleteTopics', 1, 6, async () => (await import('./20-delete-topics.js')).deleteTopicsHandler),
  lazyHandler(21, 'DeleteRecords', 0, 2, async () => (await import('./21-delete-records.js')).deleteRecordsHandler),
  lazyHandler(22, 'InitProducerId', 0, 5, async () => (await import('./22-init-producer-id.js')).initProducerIdHandler),
  lazyHandler(23, 'OffsetForLeaderEpoch', 2, 4, async () => (await import('./23-offset-for-leader-epoch.js')).offsetForLeaderEpochHandler),
  lazyHandler(24, 'AddPartitionsToTxn', 0, 5, async () => (await import('./24-add-partitions-to-txn.js')).addPartitionsToTxnHandler),
  lazyHandler(25, 'AddOffsetsToTxn', 0, 4, async () => (await import('./25-add-offsets-to-txn.js')).addOffsetsToTxnHandler),
  lazyHandler(26, 'EndTxn', 0, 5, async () => (await import('./26-end-txn.js')).endTxnHandler),
  lazyHandler(27, 'WriteTxnMarkers', 1, 2, async () => (await import('./27-write-txn-markers.js')).writeTxnMarkersHandler),
  lazyHandler(28, 'TxnOffsetCommit', 0, 5, async () => (await import('./28-txn-offset-commit.js')).txnOffsetCommitHandler),
  lazyHandler(29, 'DescribeAcls', 1, 3, async () => (await import('./29-describe-acls.js')).describeAclsHandler),
  lazyHandler(30, 'CreateAcls', 1, 3, async () => (await import('./30-create-acls.js')).createAclsHandler),
  lazyHandler(31, 'DeleteAcls', 1, 3, async () => (await import('./31-delete-acls.js')).deleteAclsHandler),
  lazyHandler(32, 'DescribeConfigs', 1, 4, async () => (await import('./32-describe-configs.js')).describeConfigsHandler),
  lazyHandler(33, 'AlterConfigs', 0, 2, async () => (await import('./33-alter-configs.js')).alterConfigsHandler),
  lazyHandler(34, 'AlterReplicaLogDirs', 1, 2, async () => (await import('./34-alter-replica-log-dirs.js')).alterReplicaLogDirsHandler),
  lazyHandler(35, 'DescribeLogDirs', 1, 5, async () => (await import('./35-describe-log-dirs.js')).describeLogDirsHandler),
  lazyHandler(36, 'SaslAuthenticate', 0, 2, async () => (await import('./36-sasl-authenticate.js')).saslAuthenticateHandler),
  lazyHandler(37, 'CreatePartitions', 0, 3, async () => (await import('./37-create-partitions.js')).createPartitionsHandler),
  lazyHandler(38, 'CreateDelegationToken', 1, 3, async () => (await import('./38-create-delegation-token.js')).createDelegationTokenHandler),
  lazyHandler(39, 'RenewDelegationToken', 1, 2, async () => (await import('./39-renew-delegation-token.js')).renewDelegationTokenHandler),
  lazyHandler(40, 'ExpireDelegationToken', 1, 2, async () => (await import('./40-expire-delegation-token.js')).expireDelegationTokenHandler),
  lazyHandler(41, 'DescribeDelegationToken', 1, 3, async () => (await import('./41-describe-delegation-token.js')).describeDelegationTokenHandler),
  lazyHandler(42, 'DeleteGroups', 0, 2, async () => (await import('./42-delete-groups.js')).deleteGroupsHandler),
  lazyHandler(43, 'ElectLeaders', 0, 2, async () => (await import('./43-elect-leaders.js')).electLeadersHandler),
  lazyHandler(44, 'IncrementalAlterConfigs', 0, 1, async () => (await import('./44-incremental-alter-configs.js')).incrementalAlterConfigsHandler),
  lazyHandler(45, 'AlterPartitionReassignments', 0, 1, async () => (await import('./45-alter-partition-reassignments.js')).alterPartitionReassignmentsHandler),
  lazyHandler(46, 'ListPartitionReassignments', 0, 0, async () => (await import('./46-list-partition-reassignments.js')).listPartitionReassignmentsHandler),
  lazyHandler(47, 'OffsetDelete', 0, 0, async () => (await import('./47-offset-delete.js')).offsetDeleteHandler),
  lazyHandler(48, 'DescribeClientQuotas', 0, 1, async () => (await import('./48-describe-client-quotas.js')).describeClientQuotasHandler),
  lazyHandler(49, 'AlterClientQuotas', 0, 1, async () => (await import('./49-alter-client-quotas.js')).alterClientQuotasHandler),
  lazyHandler(50, 'DescribeUserScramCredentials', 0, 0, async () => (await import('./50-describe-user-scram-credentials.js')).describeUserScramCredentialsHandler),
  lazyHandler(51, 'AlterUserScramCredentials', 0, 0, async () => (await import('./51-alter-user-scram-credentials.js')).alterUserScramCredentialsHandler),
  lazyHandler(55, 'DescribeQuorum', 0, 2, async () => (await import('./55-describe-quorum.js')).describeQuorumHandler),
  lazyHandler(57, 'UpdateFeatures', 0, 2, async () => (await import('./57-update-features.js')).updateFeaturesHandler),
  lazyHandler(60, 'DescribeCluster', 0, 2, async () => (await import('./60-describe-cluster.js')).describeClusterHandler),
  lazyHandler(61, 'DescribeProducers', 0, 0, async () => (await import('./61-describe-producers.js')).describeProducersHandler),
  lazyHandler(64, 'UnregisterBroker', 0, 0, async () => (await import('./64-unregister-broker.js')).unregisterBrokerHandler),
  lazyHandler(65, 'DescribeTransactions', 0, 0, async () => (await import('./65-describe-transactions.js')).describeTransactionsHandler),
  lazyHandler(66, 'ListTransactions', 0, 2, async () => (await import('./66-list-transactions.js')).listTransactionsHandler),
  lazyHandler(68, 'ConsumerGroupHeartbeat', 0, 1, async () => (await import('./68-consumer-group-heartbeat.js')).consumerGroupHeartbeatHandler),
  lazyHandler(69, 'ConsumerGroupDescribe', 0, 1, async () => (await import('./69-consumer-group-describe.js')).consumerGroupDescribeHandler),
  lazyHandler(76, 'ShareGroupHeartbeat', 1, 1, async () => (await import('./76-share-group-heartbeat.js')).shareGroupHeartbeatHandler),
  lazyHandler(77, 'ShareGroupDescribe', 1, 1, async () => (await import('./77-share-group-describe.js')).shareGroupDescribeHandler),
  lazyHandler(78, 'ShareFetch', 1, 2, async () => (await import('./78-share-fetch.js')).shareFetchHandler),
  lazyHandler(79, 'ShareAcknowledge', 1, 2, async () => (await import('./79-share-acknowledge.js')).shareAcknowledgeHandler),
  lazyHandler(83, 'InitializeShareGroupState', 0, 0, async () => (await import('./83-initialize-share-group-state.js')).initializeShareGroupStateHandler),
  lazyHandler(84, 'ReadShareGroupState', 0, 0, async () => (await import('./84-read-share-group-state.js')).readShareGroupStateHandler),
  lazyHandler(85, 'WriteShareGroupState', 0, 1, async () => (await import('./85-write-share-group-state.js')).writeShareGroupStateHandler),
  lazyHandler(86, 'DeleteShareGroupState', 0, 0, async () => (await import('./86-delete-share-group-state.js')).deleteShareGroupStateHandler),
  lazyHandler(87, 'ReadShareGroupStateSummary', 0, 1, async () => (await import('./87-read-share-group-state-summary.js')).readShareGroupStateSummaryHandler),
  lazyHandler(88, 'StreamsGroupHeartbeat', 0, 0, async () => (await import('./88-streams-group-heartbeat.js')).streamsGroupHeartbeatHandler),
  lazyHandler(89, 'StreamsGroupDescribe', 0, 0, async () => (await import('./89-streams-group-describe.js')).streamsGroupDescribeHandler),
  lazyHandler(90, 'DescribeShareGroupOffsets', 0, 1, async () => (await import('./90-describe-share-group-offsets.js')).describeShareGroupOffsetsHandler),
  lazyHandler(91, 'AlterShareGroupOffsets', 0, 0, async () => (await import('./91-alter-share-group-offsets.js')).alterShareGroupOffsetsHandler),
  lazyHandler(92, 'DeleteShareGroupOffsets', 0, 0, async () => (await import('./92-delete-share-group-offsets.js')).deleteShareGroupOffsetsHandler),
  lazyHandler(74, 'ListConfigResources', 0, 1, async () => (await import('./74-list-config-resources.js')).listConfigResourcesHandler),
  lazyHandler(75, 'DescribeTopicPartitions', 0, 0, async () => (await import('./75-describe-topic-partitions.js')).describeTopicPartitionsHandler),
  lazyHandler(80, 'AddRaftVoter', 0, 1, async () => (await import('./80-add-raft-voter.js')).addRaftVoterHandler),
  lazyHandler(81, 'RemoveRaftVoter', 0, 0, async () => (await import('./81-remove-raft-voter.js')).removeRaftVoterHandler),
];
