// newest-versions: the API versions each client really uses against Apache Kafka 4.3.1, read through the recording
// proxy (runner/versions.ts) while it produces, consumes in a group with commits and runs a transaction. A broker
// advertising a range that differs from Kafka's makes a client negotiate something else, and the cell fails naming
// the API. null: the client must not send that API at all. Every version used is also observed for the differential
// mode (ApiVersions included: a client that opens with a version Kafka does not serve retries with Kafka's highest).
import type { ExpectedVersions } from '../runner/versions.js';

/** What a client does inside a transaction with transaction.version 2 (KIP-890): partitions and offsets join implicitly. */
const TRANSACTIONS_V2 = { InitProducerId: 5, EndTxn: 5, TxnOffsetCommit: 5, AddPartitionsToTxn: null, AddOffsetsToTxn: null };

export const NEWEST_VERSIONS: Readonly<Record<string, ExpectedVersions>> = {
  // kafka-clients 4.3.1 with the classic group protocol: OffsetCommit/OffsetFetch v10 (topic ids) are sent only by
  // the KIP-848 consumer (group.protocol=consumer, issue #16), so the classic consumer and the admin stay at v9.
  'java-client': {
    ...TRANSACTIONS_V2, Produce: 13, Fetch: 18, ListOffsets: 11, Metadata: 13, CreateTopics: 7, FindCoordinator: 6, JoinGroup: 9,
    SyncGroup: 5, LeaveGroup: 5, OffsetCommit: 9, OffsetFetch: 9, DescribeGroups: 6, DescribeCluster: 2, ListTransactions: 2,
    DescribeTransactions: 0,
  },
  // Kafka 4.3.1's tools (cluster-admin): the admin client's newest versions, and a transactional perf-test producer.
  'java-tools': {
    DescribeQuorum: 2, UpdateFeatures: 2, DescribeClientQuotas: 1, AlterClientQuotas: 1, ListConfigResources: 1, DescribeConfigs: 4,
    IncrementalAlterConfigs: 1, ListGroups: 5, DescribeCluster: 2, ListTransactions: 2, DescribeTransactions: 0, Produce: 13,
    EndTxn: 5, AddPartitionsToTxn: null,
  },
  // franz-go v1.22.3: topic ids in OffsetCommit/OffsetFetch v10 with classic groups too, and transactions v2.
  'franz-go': {
    ...TRANSACTIONS_V2, Produce: 13, Fetch: 18, ListOffsets: 11, Metadata: 13, CreateTopics: 7, FindCoordinator: 6, JoinGroup: 9,
    SyncGroup: 5, LeaveGroup: 5, OffsetCommit: 10, OffsetFetch: 10, DescribeGroups: 6, DescribeTransactions: 0,
  },
  // librdkafka 2.16.0 (confluent-kafka 2.16.1): transactions v1 (it adds partitions and offsets explicitly).
  'confluent-kafka': {
    Produce: 10, Fetch: 16, ListOffsets: 7, Metadata: 13, CreateTopics: 4, FindCoordinator: 2, JoinGroup: 5, SyncGroup: 3, LeaveGroup: 1,
    OffsetCommit: 9, OffsetFetch: 9, DescribeGroups: 5, InitProducerId: 4, AddPartitionsToTxn: 0, AddOffsetsToTxn: 0, TxnOffsetCommit: 3,
    EndTxn: 1,
  },
  // kafkajs 2.2.4: its own fixed maxima (Kafka 2.x era), transactions v1.
  kafkajs: {
    Produce: 7, Fetch: 11, ListOffsets: 3, Metadata: 6, CreateTopics: 3, FindCoordinator: 2, JoinGroup: 5, SyncGroup: 3, LeaveGroup: 3,
    OffsetCommit: 5, OffsetFetch: 4, DescribeGroups: 2, InitProducerId: 1, AddPartitionsToTxn: 1, AddOffsetsToTxn: 1, TxnOffsetCommit: 1,
    EndTxn: 1,
  },
  // Sarama v1.61.1 configured for Kafka 4.0 (V4_0_0_0): that release's versions, transactions version 1.
  sarama: {
    Produce: 10, Fetch: 12, ListOffsets: 6, Metadata: 11, CreateTopics: 7, FindCoordinator: 3, JoinGroup: 8, SyncGroup: 5, LeaveGroup: 5,
    OffsetCommit: 8, OffsetFetch: 8, DescribeGroups: 5, InitProducerId: 4, AddPartitionsToTxn: 3, AddOffsetsToTxn: 3, TxnOffsetCommit: 3,
    EndTxn: 3,
  },
  // kafka-python 3.0.12: Metadata 13, ListOffsets 11 and DescribeGroups 6, but Produce 9 and Fetch 12; transactions v1.
  'kafka-python': {
    Produce: 9, Fetch: 12, ListOffsets: 11, Metadata: 13, CreateTopics: 7, FindCoordinator: 6, JoinGroup: 7, SyncGroup: 5, LeaveGroup: 5,
    OffsetCommit: 8, OffsetFetch: 8, DescribeGroups: 6, DescribeCluster: 2, DescribeTransactions: 0, InitProducerId: 4,
    AddPartitionsToTxn: 3, AddOffsetsToTxn: 3, TxnOffsetCommit: 3, EndTxn: 3,
  },
  // @platformatic/kafka 1.35.0: a Kafka 4.0-era set (Produce 11, Fetch 17, Metadata 12); transactions v1 with
  // AddPartitionsToTxn 5 and EndTxn 4.
  platformatic: {
    Produce: 11, Fetch: 17, ListOffsets: 9, Metadata: 12, CreateTopics: 7, FindCoordinator: 6, JoinGroup: 9, SyncGroup: 5, LeaveGroup: 5,
    OffsetCommit: 9, OffsetFetch: 9, DescribeGroups: 5, InitProducerId: 5, AddPartitionsToTxn: 5, EndTxn: 4,
  },
  // librdkafka 2.0.2 (Debian's kcat 1.7.1): no transactions.
  kcat: {
    Produce: 7, Fetch: 11, ListOffsets: 2, Metadata: 4, FindCoordinator: 2, JoinGroup: 5, SyncGroup: 3, LeaveGroup: 1, OffsetCommit: 7,
    OffsetFetch: 7, InitProducerId: 4,
  },
};

export function newestVersionsOf(client: string): ExpectedVersions {
  const expected = NEWEST_VERSIONS[client];
  if (expected === undefined) throw new Error(`clients/newest-versions.ts has no versions for ${client}`);
  return expected;
}
