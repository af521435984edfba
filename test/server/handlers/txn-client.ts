// A transactional producer spoken by hand over one connection (raw requests, each version chosen by the test):
// what the transaction tests send to gregor and, to check them, to the reference Kafka.
import { createTopicsApi, createCreateTopicsRequest, createCreatableTopic } from '../../../src/protocol/generated/create-topics.js';
import { createDescribeTransactionsRequest, describeTransactionsApi, type TransactionState } from '../../../src/protocol/generated/describe-transactions.js';
import { createEndTxnRequest, endTxnApi, type EndTxnResponse } from '../../../src/protocol/generated/end-txn.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../../src/protocol/generated/find-coordinator.js';
import { createInitProducerIdRequest, initProducerIdApi } from '../../../src/protocol/generated/init-producer-id.js';
import { addPartitionsToTxnApi, createAddPartitionsToTxnRequest } from '../../../src/protocol/generated/add-partitions-to-txn.js';
import { createProduceRequest, produceApi, type PartitionProduceResponse } from '../../../src/protocol/generated/produce.js';
import { createTxnOffsetCommitRequest, txnOffsetCommitApi } from '../../../src/protocol/generated/txn-offset-commit.js';
import { createListTransactionsRequest, listTransactionsApi } from '../../../src/protocol/generated/list-transactions.js';
import { encodeRecordBatch } from '../../../src/protocol/records/index.js';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createMetadataRequest, createMetadataRequestTopic, metadataApi } from '../../../src/protocol/generated/metadata.js';
import { roundTrip } from '../broker-harness.js';
import { RawClient } from '../raw-client.js';

/** What InitProducerId answers while the coordinator is still loading or a fence is in progress. */
const RETRIABLE_INIT = new Set<number>([ErrorCode.CONCURRENT_TRANSACTIONS, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE]);

export interface ProducerIdAndEpoch {
  producerId: number;
  producerEpoch: number;
}

export class TxnClient {
  private constructor(
    readonly client: RawClient,
    readonly transactionalId: string,
  ) {}

  static async connect(port: number, transactionalId: string): Promise<TxnClient> {
    return new TxnClient(await RawClient.connect(port), transactionalId);
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** FindCoordinator until the coordinator is ready (it creates __transaction_state, or __consumer_offsets for a group). */
  async findCoordinator(key = this.transactionalId, keyType = 1): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const res = await roundTrip(this.client, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType, coordinatorKeys: [key] });
      if (res.coordinators[0]!.errorCode === ErrorCode.NONE) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no transaction coordinator');
  }

  async createTopic(name: string, partitions = 1): Promise<void> {
    const res = await roundTrip(this.client, createTopicsApi, 7, {
      ...createCreateTopicsRequest(),
      topics: [{ ...createCreatableTopic(), name, numPartitions: partitions, replicationFactor: 1 }],
      timeoutMs: 30000,
    });
    const code = res.topics[0]!.errorCode;
    if (code !== ErrorCode.NONE && code !== ErrorCode.TOPIC_ALREADY_EXISTS) throw new Error(`CreateTopics ${name}: ${code}`);
    // Kafka's broker learns of the new leader from the controller a moment later.
    for (let i = 0; i < 200; i++) {
      const meta = await roundTrip(this.client, metadataApi, 12, { ...createMetadataRequest(), topics: [{ ...createMetadataRequestTopic(), name }] });
      if ((meta.topics[0]?.partitions.length ?? 0) === partitions && meta.topics[0]!.partitions.every((p) => p.leaderId >= 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** InitProducerId v5, retried while the coordinator loads or a fence is in progress. */
  async initProducerId(timeoutMs = 60000): Promise<ProducerIdAndEpoch> {
    for (let i = 0; i < 200; i++) {
      const res = await roundTrip(this.client, initProducerIdApi, 5, { ...createInitProducerIdRequest(), transactionalId: this.transactionalId, transactionTimeoutMs: timeoutMs });
      if (res.errorCode === ErrorCode.NONE) return { producerId: Number(res.producerId), producerEpoch: res.producerEpoch };
      if (!RETRIABLE_INIT.has(res.errorCode) || i === 199) throw new Error(`InitProducerId: ${res.errorCode}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('InitProducerId kept failing');
  }

  /** One transactional batch of `count` records to topic-partition, in a Produce of the given version. */
  async produce(version: number, topic: string, partition: number, p: ProducerIdAndEpoch, seq: number, count = 1, transactionalId: string | null = this.transactionalId): Promise<PartitionProduceResponse> {
    const batch = encodeRecordBatch({
      producerId: p.producerId,
      producerEpoch: p.producerEpoch,
      baseSequence: seq,
      isTransactional: true,
      records: Array.from({ length: count }, (_, i) => ({ timestamp: Date.now(), key: null, value: Buffer.from(`v${seq + i}`) })),
    });
    for (let i = 0; ; i++) {
      const response = await this.produceOnce(version, topic, partition, batch, transactionalId);
      // Kafka's broker may not lead a partition created a moment ago yet.
      if (response.errorCode !== ErrorCode.NOT_LEADER_OR_FOLLOWER || i === 200) return response;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async produceOnce(version: number, topic: string, partition: number, batch: Buffer, transactionalId: string | null): Promise<PartitionProduceResponse> {
    const res = await roundTrip(this.client, produceApi, version, {
      ...createProduceRequest(),
      transactionalId,
      acks: -1,
      timeoutMs: 30000,
      topicData: [{ name: topic, topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitionData: [{ index: partition, records: batch }] }],
    });
    return res.responses[0]!.partitionResponses[0]!;
  }

  async addPartitions(p: ProducerIdAndEpoch, topic: string, partitions: number[]): Promise<number> {
    const res = await roundTrip(this.client, addPartitionsToTxnApi, 3, {
      ...createAddPartitionsToTxnRequest(),
      v3AndBelowTransactionalId: this.transactionalId,
      v3AndBelowProducerId: BigInt(p.producerId),
      v3AndBelowProducerEpoch: p.producerEpoch,
      v3AndBelowTopics: [{ name: topic, partitions }],
    });
    return res.resultsByTopicV3AndBelow[0]!.resultsByPartition[0]!.partitionErrorCode;
  }

  endTxn(version: number, p: ProducerIdAndEpoch, commit: boolean): Promise<EndTxnResponse> {
    return roundTrip(this.client, endTxnApi, version, {
      ...createEndTxnRequest(),
      transactionalId: this.transactionalId,
      producerId: BigInt(p.producerId),
      producerEpoch: p.producerEpoch,
      committed: commit,
    });
  }

  async describe(): Promise<TransactionState> {
    const res = await roundTrip(this.client, describeTransactionsApi, 0, { ...createDescribeTransactionsRequest(), transactionalIds: [this.transactionalId] });
    return res.transactionStates[0]!;
  }

  /** DescribeTransactions until the transaction reaches `state` (its markers are written). */
  async waitForState(state: string): Promise<TransactionState> {
    for (let i = 0; i < 400; i++) {
      const described = await this.describe();
      if (described.transactionState === state) return described;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`transaction never reached ${state}`);
  }

  async listStates(): Promise<string[]> {
    const res = await roundTrip(this.client, listTransactionsApi, 1, createListTransactionsRequest());
    return res.transactionStates.filter((t) => t.transactionalId === this.transactionalId).map((t) => t.transactionState);
  }

  /** TxnOffsetCommit of one offset (no group membership: generation -1); the first partition's code. */
  async txnOffsetCommit(version: number, p: ProducerIdAndEpoch, groupId: string, topic: string, offset: number): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const code = await this.txnOffsetCommitOnce(version, p, groupId, topic, offset);
      if (code !== ErrorCode.NOT_COORDINATOR && code !== ErrorCode.COORDINATOR_LOAD_IN_PROGRESS) return code;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the group coordinator never loaded');
  }

  private async txnOffsetCommitOnce(version: number, p: ProducerIdAndEpoch, groupId: string, topic: string, offset: number): Promise<number> {
    const res = await roundTrip(this.client, txnOffsetCommitApi, version, {
      ...createTxnOffsetCommitRequest(),
      transactionalId: this.transactionalId,
      groupId,
      producerId: BigInt(p.producerId),
      producerEpoch: p.producerEpoch,
      topics: [{ name: topic, partitions: [{ partitionIndex: 0, committedOffset: BigInt(offset), committedLeaderEpoch: -1, committedMetadata: null }] }],
    });
    return res.topics[0]!.partitions[0]!.errorCode;
  }
}
