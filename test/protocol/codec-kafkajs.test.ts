// Cross-check against an independent hand-written codec: kafkajs's own request encoders and response
// decoders (non-flexible versions only; kafkajs predates flexible versions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Reader } from '../../src/protocol/io/reader.js';
import { Writer } from '../../src/protocol/io/writer.js';
import { createMetadataRequest, createMetadataResponse, decodeMetadataRequest, encodeMetadataRequest, encodeMetadataResponse } from '../../src/protocol/generated/metadata.js';
import { encodeHeartbeatRequest } from '../../src/protocol/generated/heartbeat.js';
import { encodeFindCoordinatorRequest } from '../../src/protocol/generated/find-coordinator.js';
import { seededRng } from './codec-random.js';

const require = createRequire(import.meta.url);

interface KafkajsRequest {
  apiKey: number;
  apiVersion: number;
  encode(): Promise<{ buffer: Buffer }>;
}
type RequestFactory = (args: Record<string, unknown>) => KafkajsRequest;
type ResponseDecoder = { decode(raw: Buffer): Promise<Record<string, unknown>> };

const kafkajsRequest = (api: string, version: number): RequestFactory => require(`kafkajs/src/protocol/requests/${api}/v${version}/request`) as RequestFactory;
const kafkajsResponse = (api: string, version: number): ResponseDecoder => require(`kafkajs/src/protocol/requests/${api}/v${version}/response`) as ResponseDecoder;

function ours(write: (w: Writer) => void): string {
  const w = new Writer();
  write(w);
  return w.toBuffer().toString('hex');
}

test('Metadata v0-v6 requests encode exactly as kafkajs encodes them', async () => {
  for (let v = 0; v <= 6; v++) {
    for (const topics of [['orders'], ['a', 'bb', 'ccc'], []]) {
      const allowAutoTopicCreation = v >= 4 ? topics.length !== 1 : true;
      const theirs = (await kafkajsRequest('metadata', v)({ topics, allowAutoTopicCreation }).encode()).buffer.toString('hex');
      // kafkajs asks for "all topics" with an empty list: [] in v0, a null array (-1) from v1.
      const list = topics.length === 0 && v >= 1 ? null : topics.map((name) => ({ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', name }));
      const m = { ...createMetadataRequest(), topics: list, allowAutoTopicCreation };
      assert.equal(ours((w) => encodeMetadataRequest(w, m, v)), theirs, `Metadata v${v} ${JSON.stringify(topics)}`);
      assert.deepEqual(decodeMetadataRequest(new Reader(Buffer.from(theirs, 'hex')), v), m);
    }
  }
});

test('Heartbeat v0-v3 and FindCoordinator v0-v2 requests encode exactly as kafkajs encodes them', async () => {
  for (let v = 0; v <= 3; v++) {
    const args = { groupId: 'group-1', groupGenerationId: 42, memberId: 'member-é', groupInstanceId: v >= 3 ? 'static-1' : null };
    const theirs = (await kafkajsRequest('heartbeat', v)(args).encode()).buffer.toString('hex');
    const m = { groupId: args.groupId, generationId: args.groupGenerationId, memberId: args.memberId, groupInstanceId: args.groupInstanceId };
    assert.equal(ours((w) => encodeHeartbeatRequest(w, m, v)), theirs, `Heartbeat v${v}`);
  }
  const base = { key: 'group-1', keyType: 0, coordinatorKeys: [] as string[] };
  assert.equal(
    ours((w) => encodeFindCoordinatorRequest(w, base, 0)),
    (await kafkajsRequest('findCoordinator', 0)({ groupId: 'group-1' }).encode()).buffer.toString('hex'),
  );
  for (const v of [1, 2]) {
    const theirs = (await kafkajsRequest('findCoordinator', v)({ coordinatorKey: 'txn-1', coordinatorType: 1 }).encode()).buffer.toString('hex');
    assert.equal(ours((w) => encodeFindCoordinatorRequest(w, { ...base, key: 'txn-1', keyType: 1 }, v)), theirs, `FindCoordinator v${v}`);
  }
});

test('Metadata v1-v6 responses we encode are read back correctly by kafkajs', async () => {
  const rng = seededRng(7);
  for (let v = 1; v <= 6; v++) {
    const m = createMetadataResponse();
    m.throttleTimeMs = v >= 3 ? 17 : 0;
    m.brokers = [
      { nodeId: 1, host: 'localhost', port: 9092, rack: null },
      { nodeId: 2, host: 'broker-2', port: 19092, rack: 'r1' },
    ];
    m.clusterId = v >= 2 ? 'cluster-x' : null;
    m.controllerId = 2;
    for (let t = 0; t < 3; t++) {
      const partitions = Array.from({ length: 1 + Math.floor(rng() * 4) }, (_, p) => ({
        errorCode: p === 1 ? 5 : 0,
        partitionIndex: p,
        leaderId: 1 + (p % 2),
        leaderEpoch: -1,
        replicaNodes: [1, 2],
        isrNodes: [1 + (p % 2)],
        offlineReplicas: v >= 5 && p === 0 ? [2] : [],
      }));
      m.topics.push({ errorCode: 0, name: `topic-${t}`, topicId: 'AAAAAAAAAAAAAAAAAAAAAA', isInternal: t === 2, partitions, topicAuthorizedOperations: -2147483648 });
    }
    const w = new Writer();
    encodeMetadataResponse(w, m, v);
    const decoded = await kafkajsResponse('metadata', v).decode(w.toBuffer());
    assert.deepEqual(
      (decoded['brokers'] as { nodeId: number; host: string; port: number; rack: string | null }[]).map((b) => [b.nodeId, b.host, b.port, b.rack]),
      m.brokers.map((b) => [b.nodeId, b.host, b.port, b.rack]),
      `v${v} brokers`,
    );
    assert.equal(decoded['controllerId'], 2);
    if (v >= 2) assert.equal(decoded['clusterId'], 'cluster-x');
    const topics = decoded['topicMetadata'] as { topic: string; isInternal: boolean; partitionMetadata: { partitionId: number; leader: number; replicas: number[]; isr: number[]; partitionErrorCode: number; offlineReplicas?: number[] }[] }[];
    assert.deepEqual(topics.map((t) => [t.topic, t.isInternal]), m.topics.map((t) => [t.name, t.isInternal]), `v${v} topics`);
    topics.forEach((t, i) => {
      assert.deepEqual(
        t.partitionMetadata.map((p) => [p.partitionErrorCode, p.partitionId, p.leader, p.replicas, p.isr]),
        m.topics[i]!.partitions.map((p) => [p.errorCode, p.partitionIndex, p.leaderId, p.replicaNodes, p.isrNodes]),
        `v${v} partitions of ${t.topic}`,
      );
      if (v >= 5) assert.deepEqual(t.partitionMetadata.map((p) => p.offlineReplicas), m.topics[i]!.partitions.map((p) => p.offlineReplicas));
    });
  }
});
