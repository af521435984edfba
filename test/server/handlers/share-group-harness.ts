// A share group over a socket, for the ShareFetch/ShareAcknowledge tests that run against gregor or, with
// SHARE_FETCH_REFERENCE=host:port, against a Kafka 4.3.1 broker: a new one-partition topic with records, the
// group's configs, and a member whose assignment (and so the share partition's initialization) is done.
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../../src/protocol/generated/find-coordinator.js';
import { createAlterableConfig, createAlterConfigsResource, createIncrementalAlterConfigsRequest, incrementalAlterConfigsApi } from '../../../src/protocol/generated/incremental-alter-configs.js';
import { createFetchPartition, createShareFetchRequest, type ShareFetchRequest, type ShareFetchResponse } from '../../../src/protocol/generated/share-fetch.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { batch, produce, values } from '../../broker/data-harness.js';

const GROUP_RESOURCE = 32;
export const MEMBER_A = 'AAAAAAAAAAAAAAAAAAAAAQ';
export const MEMBER_B = 'AAAAAAAAAAAAAAAAAAAAAg';

export interface ShareGroupRun {
  readonly host: string;
  readonly port: number;
  readonly admin: RawClient;
  readonly group: string;
  readonly topic: string;
  readonly topicId: string;
  /** The broker when gregor runs in this process (its fault rules), undefined against a reference Kafka. */
  readonly broker: Awaited<ReturnType<typeof startTestBroker>> | undefined;
  /** A ShareFetch of the topic's partition with `extra` over fetch settings of 500 records and 1 MiB. */
  fetchRequest(memberId: string, epoch: number, maxWaitMs: number, extra?: Partial<ShareFetchRequest>): ShareFetchRequest;
}

/** Runs `body` over a new share group of MEMBER_A on a new topic (of `partitions`, `records` in partition 0), then closes what it opened. */
export async function withShareGroup(prefix: string, configs: Record<string, string>, records: string[], body: (run: ShareGroupRun) => Promise<void>,
  partitions = 1): Promise<void> {
  const reference = process.env['SHARE_FETCH_REFERENCE'];
  const broker = reference === undefined ? await startTestBroker({ 'node.id': '1', 'group.share.assignment.interval.ms': '0' }) : undefined;
  const [host, port] = reference === undefined ? ['127.0.0.1', broker!.port] : [reference.split(':')[0]!, Number(reference.split(':')[1])];
  const admin = await RawClient.connect(port, host);
  // A new topic and group each run, so that a file runs again against the same reference broker.
  const topic = `${prefix}-${Date.now()}`;
  const group = `g-${topic}`;
  try {
    const created = await roundTrip(admin, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: topic, numPartitions: partitions, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    const altered = await roundTrip(admin, incrementalAlterConfigsApi, 1, {
      ...createIncrementalAlterConfigsRequest(),
      resources: [{ ...createAlterConfigsResource(), resourceType: GROUP_RESOURCE, resourceName: group, configs: Object.entries(configs).map(([name, value]) => ({ ...createAlterableConfig(), name, configOperation: 0, value })) }],
    });
    assert.equal(altered.responses[0]!.errorCode, ErrorCode.NONE);
    if (records.length > 0) await produce(admin, topic, 0, batch(values(...records)));
    const beat = (memberEpoch: number, subscribedTopicNames: string[] | null) =>
      roundTrip(admin, shareGroupHeartbeatApi, 1, { ...createShareGroupHeartbeatRequest(), groupId: group, memberId: MEMBER_A, memberEpoch, subscribedTopicNames });
    // FindCoordinator creates __consumer_offsets on a fresh broker; its coordinator may take a moment to load.
    await roundTrip(admin, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: [group] });
    let joined = await beat(0, [topic]);
    for (let i = 0; i < 100 && joined.errorCode !== ErrorCode.NONE; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      joined = await beat(0, [topic]);
    }
    let memberEpoch = joined.memberEpoch;
    for (let assigned = false; !assigned; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const r = await beat(memberEpoch, null);
      [memberEpoch, assigned] = [r.memberEpoch, r.assignment !== null && r.assignment.topicPartitions.length > 0];
    }
    const fetchRequest = (memberId: string, epoch: number, maxWaitMs: number, extra: Partial<ShareFetchRequest> = {}): ShareFetchRequest => ({
      ...createShareFetchRequest(), groupId: group, memberId, shareSessionEpoch: epoch, maxWaitMs, minBytes: 1, maxBytes: 1 << 20, maxRecords: 500, batchSize: 500,
      topics: [{ topicId, partitions: [{ ...createFetchPartition(), partitionIndex: 0 }] }],
      ...extra,
    });
    await body({ host, port, admin, group, topic, topicId, broker, fetchRequest });
  } finally {
    await admin.close();
    await broker?.close();
  }
}

/** The acquired ranges of a ShareFetch response, [first, last, delivery count] each. */
export const acquired = (r: ShareFetchResponse): number[][] =>
  r.responses.flatMap((t) => t.partitions.flatMap((p) => p.acquiredRecords.map((a) => [Number(a.firstOffset), Number(a.lastOffset), a.deliveryCount])));
