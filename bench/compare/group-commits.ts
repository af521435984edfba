// The start-up case "restart after N group commits" (issue 24): a group's offsets committed one OffsetCommit at a
// time, as a consumer commits after each message (one __consumer_offsets batch each), then the time from a restarted
// broker's process start until OffsetFetch serves every partition's last commit. gregor loads the offsets before it
// listens; Kafka listens first and answers COORDINATOR_LOAD_IN_PROGRESS (or NOT_COORDINATOR) until it has loaded.
import { performance } from 'node:perf_hooks';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../src/protocol/generated/find-coordinator.js';
import { createOffsetCommitRequest, createOffsetCommitRequestTopic, offsetCommitApi } from '../../src/protocol/generated/offset-commit.js';
import { createOffsetFetchRequest, offsetFetchApi, type OffsetFetchResponseGroup } from '../../src/protocol/generated/offset-fetch.js';
import { decodeResponse, encodeRequest, roundTrip } from '../../test/server/broker-harness.js';
import { RawClient } from '../../test/server/raw-client.js';

const FIND_COORDINATOR_VERSION = 4;
const OFFSET_COMMIT_VERSION = 8;
const OFFSET_FETCH_VERSION = 8;
const CONNECTIONS = 4;
const IN_FLIGHT = 32;

export interface CommitPlan {
  group: string;
  topic: string;
  partitions: number;
}

/** The offset commit number `i` writes: partition i % partitions, offset i + 1 (the latest commit per partition wins). */
export function expectedOffsets(plan: CommitPlan, commits: number): Map<number, bigint> {
  const expected = new Map<number, bigint>();
  for (let i = Math.max(0, commits - plan.partitions); i < commits; i++) expected.set(i % plan.partitions, BigInt(i + 1));
  return expected;
}

/** An OffsetFetch of the whole group on `client`; the group's error code and what it served per partition. */
async function fetchGroup(client: RawClient, group: string): Promise<OffsetFetchResponseGroup> {
  const request = { ...createOffsetFetchRequest(), groups: [{ groupId: group, memberId: null, memberEpoch: -1, topics: null }] };
  const response = await roundTrip(client, offsetFetchApi, OFFSET_FETCH_VERSION, request);
  return response.groups[0] ?? { groupId: group, errorCode: -1, topics: [] };
}

/**
 * Polls until the group's coordinator serves it: FindCoordinator (Kafka creates __consumer_offsets on the first ask),
 * then OffsetFetch, as Kafka answers NOT_COORDINATOR for a while after FindCoordinator names it.
 */
async function awaitCoordinator(port: number, group: string, limitMs = 120_000): Promise<void> {
  const client = await RawClient.connect(port);
  try {
    const deadline = performance.now() + limitMs;
    for (;;) {
      const response = await roundTrip(client, findCoordinatorApi, FIND_COORDINATOR_VERSION, { ...createFindCoordinatorRequest(), keyType: 0, coordinatorKeys: [group] });
      let code = response.coordinators[0]?.errorCode;
      if (code === 0) code = (await fetchGroup(client, group)).errorCode;
      if (code === 0) return;
      if (performance.now() > deadline) throw new Error(`the coordinator of ${group} still answers error ${code} after ${limitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.close();
  }
}

/**
 * Sends commits number `from` .. `to` - 1 of the plan, each its own OffsetCommit of one partition (generation -1: a
 * group with no members, as a tool or a standalone consumer commits), over a few connections with requests in flight.
 * Connection c sends the commits i with i % CONNECTIONS = c, in order: each partition's commits take one connection,
 * so its last commit is the last one applied.
 */
export async function commitOffsets(port: number, plan: CommitPlan, from: number, to: number): Promise<void> {
  if (plan.partitions % CONNECTIONS !== 0) throw new Error(`the partition count must be a multiple of ${CONNECTIONS}`);
  await awaitCoordinator(port, plan.group);
  const connection = async (c: number): Promise<void> => {
    const client = await RawClient.connect(port);
    try {
      let inFlight = 0;
      const receive = async () => {
        const { response } = decodeResponse(offsetCommitApi, OFFSET_COMMIT_VERSION, await client.read());
        inFlight--;
        const code = response.topics[0]?.partitions[0]?.errorCode;
        if (code !== 0) throw new Error(`OffsetCommit answered error ${code}`);
      };
      for (let i = from + ((c - (from % CONNECTIONS) + CONNECTIONS) % CONNECTIONS); i < to; i += CONNECTIONS) {
        const request = {
          ...createOffsetCommitRequest(),
          groupId: plan.group,
          generationIdOrMemberEpoch: -1,
          memberId: '',
          topics: [{ ...createOffsetCommitRequestTopic(), name: plan.topic, partitions: [{ partitionIndex: i % plan.partitions, committedOffset: BigInt(i + 1), committedLeaderEpoch: -1, committedMetadata: '' }] }],
        };
        client.send(encodeRequest(offsetCommitApi, OFFSET_COMMIT_VERSION, request, i + 1, 'gregor-bench'));
        if (++inFlight >= IN_FLIGHT) await receive();
      }
      while (inFlight > 0) await receive();
    } finally {
      await client.close();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => connection(c)));
}

/** One OffsetFetch of the whole group; true when every partition shows its expected offset. */
async function offsetsServed(port: number, plan: CommitPlan, expected: ReadonlyMap<number, bigint>): Promise<boolean> {
  let client: RawClient | undefined;
  try {
    client = await RawClient.connect(port);
    const group = await fetchGroup(client, plan.group);
    if (group.errorCode !== 0) return false;
    const served = new Map<number, bigint>();
    for (const topic of group.topics) if (topic.name === plan.topic) for (const p of topic.partitions) if (p.errorCode === 0) served.set(p.partitionIndex, p.committedOffset);
    if (served.size !== expected.size) return false;
    for (const [partition, offset] of expected) if (served.get(partition) !== offset) return false;
    return true;
  } catch {
    return false;
  } finally {
    await client?.close();
  }
}

/** Polls OffsetFetch until the group's offsets are all served. */
export async function waitForOffsets(port: number, plan: CommitPlan, expected: ReadonlyMap<number, bigint>, isAlive: () => boolean, limitMs = 600_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    if (await offsetsServed(port, plan, expected)) return;
    if (!isAlive()) throw new Error(`the broker on port ${port} exited before serving the committed offsets`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the committed offsets of ${plan.group} were not all served within ${limitMs / 1000} s`);
}
