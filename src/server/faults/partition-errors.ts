/**
 * An injected error for some partitions (or groups) of a request, the rest handled as usual: what a broker that lost
 * the leadership of one partition answers. A rule naming a topic or partition, on an API whose response carries an
 * error per partition, takes the partitions it names out of the request (they are not handled: nothing is appended,
 * committed or deleted for them), lets the handler answer the rest, and puts an error entry for each taken partition
 * into the handler's response. Fetch is read-only and keeps its session, so it is handled whole (at once: an error ends
 * a long poll, as in Kafka) and the named partitions' answers are replaced. ShareFetch serves its share session's
 * partitions, listed or not: the handler leaves the named ones out before acquiring (shareFetchPlan). A rule naming a group on an API that lists
 * groups (OffsetFetch v8+, DescribeGroups, DeleteGroups, the *GroupDescribe APIs) does the same per group.
 *
 * AddPartitionsToTxn (v0-3) is Kafka's all-or-nothing: the named partitions get the error, the others
 * OPERATION_NOT_ATTEMPTED, and none is added. An API or version without such errors gets Kafka's error response
 * for the whole request (plan() answers null).
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { createPartitionData } from '../../protocol/generated/fetch.js';
import { createOffsetFetchResponsePartition } from '../../protocol/generated/offset-fetch.js';
import { createLeaderIdAndEpoch } from '../../protocol/generated/share-acknowledge.js';
import { CloseConnection } from '../connection.js';
import type { BrokerState } from '../handler.js';
import type { FaultMatch } from './fault-rule.js';

const EMPTY: readonly Buffer[] = [];
const NO_OFFSET = -1n;
/** AddPartitionsToTxn v4 is the brokers' batched form: the whole-request error there. */
const ADD_PARTITIONS_BATCHED = 4;
const OFFSET_FETCH_KEY = 9;
export const SHARE_FETCH_KEY = 78;
const OFFSET_FETCH_BATCHED = 8;
/** Produce v10 and Fetch v16 carry KIP-951's current leader and node endpoints. */
const PRODUCE_LEADER_HINTS = 10;
const FETCH_LEADER_HINTS = 16;

type Obj = Record<string, unknown>;

/** What the router gives: the handler, the API's error response as an object, the topic-id lookup, the current leader. */
export interface PartitionErrorSite {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly request: unknown;
  readonly topicName: (topicId: string) => string | undefined;
  /**
   * Runs the handler on `request`; `shape` changes its response before it is encoded; `faulted` is what the handler
   * asks of a partition it serves without the request naming it (RequestContext.faultedPartition).
   */
  handle(request: unknown, shape: (response: unknown) => unknown, faulted?: FaultedPartition): unknown;
  /** Encodes a response built here. */
  answer(response: unknown): unknown;
  /** Kafka's error response to `request` (unencoded), every partition or group in it carrying the code. */
  errorObject(request: unknown, code: number, message: string | null): Promise<unknown>;
  /** KIP-951: the partition's current leader, and its endpoint on the client's listener. */
  leaderOf(topic: string, partition: number): { leaderId: number; leaderEpoch: number; node: { nodeId: number; host: string; port: number; rack: string | null } | undefined };
}

/** The rule's error for a partition it names (by topic id), undefined for the others. */
export type FaultedPartition = (topicId: string, partition: number) => { readonly code: number; readonly message: string | null } | undefined;

export interface PartitionError {
  readonly code: number;
  readonly message: string | null;
  readonly match: FaultMatch;
}

/** A per-partition (or per-group) answer to this request, or null: the whole-request error response applies. */
export function partitionErrorPlan(site: PartitionErrorSite, error: PartitionError): (() => unknown) | null {
  const { topic, partition, groupId } = error.match;
  const spec = site.apiKey === OFFSET_FETCH_KEY && site.apiVersion >= OFFSET_FETCH_BATCHED && topic === undefined && partition === undefined
    ? OFFSET_FETCH_GROUPS : SPECS.get(site.apiKey);
  if (spec === undefined) return null;
  if ('groups' in spec) {
    if (groupId === undefined || topic !== undefined || partition !== undefined) return null;
    return () => groupErrors(site, error, spec);
  }
  if (topic === undefined && partition === undefined) return null;
  return spec.plan(site, error);
}

// ---- topics and partitions ----

interface TopicLayout {
  /** The request's topic list at this version (null: not per partition here), and the request with another list. */
  topics(request: Obj, version: number): Obj[] | null;
  withTopics(request: Obj, topics: Obj[]): Obj;
  /** A request topic's partitions field; its items are partition objects or bare indexes. */
  readonly partitions: string;
  readonly index: string | null;
  /** The response's topic list and a response topic's partitions field. */
  responseTopics(response: Obj): Obj[];
  readonly responsePartitions: string;
}

interface Taken {
  readonly kept: Obj[];
  /** The named partitions, as request topics of their own (what the error response is built from). */
  readonly faulted: Obj[];
}

function take(topics: Obj[], layout: TopicLayout, site: PartitionErrorSite, match: FaultMatch): Taken {
  const kept: Obj[] = [];
  const faulted: Obj[] = [];
  for (const t of topics) {
    const name = topicNameOf(t, site);
    const items = t[layout.partitions] as unknown[];
    const hit = (item: unknown) => (match.topic === undefined || match.topic === name)
      && (match.partition === undefined || match.partition === indexOf(item, layout));
    const named = items.filter(hit);
    const rest = items.filter((item) => !hit(item));
    if (named.length > 0) faulted.push({ ...t, [layout.partitions]: named });
    if (rest.length > 0) kept.push({ ...t, [layout.partitions]: rest });
  }
  return { kept, faulted };
}

function indexOf(item: unknown, layout: TopicLayout): number {
  return layout.index === null ? (item as number) : ((item as Obj)[layout.index] as number);
}

function topicNameOf(t: Obj, site: PartitionErrorSite): string | undefined {
  for (const key of ['name', 'topic']) if (typeof t[key] === 'string' && t[key] !== '') return t[key] as string;
  return typeof t['topicId'] === 'string' ? site.topicName(t['topicId']) : undefined;
}

/** Puts `entries`' topics' partitions into `into` (replacing a partition answered already): topics matched by name (ids resolved). */
function mergeTopics(site: PartitionErrorSite, into: Obj[], entries: Obj[], partitionsKey: string): void {
  for (const topic of entries) {
    const added = topic[partitionsKey] as Obj[];
    const indexes = new Set(added.map((p) => p['partitionIndex'] ?? p['index'] ?? p['partition']));
    const name = topicNameOf(topic, site);
    const existing = into.find((t) => topicNameOf(t, site) === name);
    if (existing === undefined) {
      into.push(topic);
      continue;
    }
    const kept = (existing[partitionsKey] as Obj[]).filter((p) => !indexes.has(p['partitionIndex'] ?? p['index'] ?? p['partition']));
    existing[partitionsKey] = [...kept, ...added];
  }
}

/** The named partitions left out of the request; their entries come from the API's error response to them alone. */
function filtered(layout: TopicLayout, after?: (site: PartitionErrorSite, error: PartitionError, response: Obj) => void) {
  return (site: PartitionErrorSite, error: PartitionError): (() => unknown) | null => {
    const request = site.request as Obj;
    const topics = layout.topics(request, site.apiVersion);
    if (topics === null) return null;
    const { kept, faulted } = take(topics, layout, site, error.match);
    return async () => {
      const errors = (await site.errorObject(layout.withTopics(request, faulted), error.code, error.message)) as Obj | null;
      return site.handle(layout.withTopics(request, kept), (response) => {
        if (response === null || typeof response !== 'object' || errors === null) return response;
        mergeTopics(site, layout.responseTopics(response as Obj), layout.responseTopics(errors), layout.responsePartitions);
        after?.(site, error, response as Obj);
        return response;
      });
    };
  };
}

const simple = (topics: string, partitions: string, index: string | null, responseTopics: string, responsePartitions: string): TopicLayout => ({
  topics: (request) => request[topics] as Obj[] | null,
  withTopics: (request, list) => ({ ...request, [topics]: list }),
  partitions,
  index,
  responseTopics: (response) => response[responseTopics] as Obj[],
  responsePartitions,
});

/** KIP-951: a NOT_LEADER_OR_FOLLOWER (or, on Fetch, FENCED_LEADER_EPOCH) partition names its current leader; the leaders' endpoints listed once. */
function leaderHints(topicsKey: string, partitionsKey: string, codes: readonly number[]) {
  return (site: PartitionErrorSite, error: PartitionError, response: Obj): void => {
    if (!codes.includes(error.code)) return;
    const endpoints = new Map<number, Obj>((response['nodeEndpoints'] as Obj[]).map((n) => [n['nodeId'] as number, n]));
    for (const topic of response[topicsKey] as Obj[]) {
      const name = topicNameOf(topic, site);
      if (name === undefined) continue;
      for (const p of topic[partitionsKey] as Obj[]) {
        if (!codes.includes(p['errorCode'] as number)) continue;
        const leader = site.leaderOf(name, (p['partitionIndex'] ?? p['index']) as number);
        p['currentLeader'] = { leaderId: leader.leaderId, leaderEpoch: leader.leaderEpoch };
        if (leader.node !== undefined) endpoints.set(leader.node.nodeId, { ...leader.node });
      }
    }
    response['nodeEndpoints'] = [...endpoints.values()];
  };
}

const produceLayout = simple('topicData', 'partitionData', 'index', 'responses', 'partitionResponses');
const produceHints = leaderHints('responses', 'partitionResponses', [ErrorCode.NOT_LEADER_OR_FOLLOWER]);
const fetchLayout = simple('topics', 'partitions', 'partition', 'responses', 'partitions');
const fetchHints = leaderHints('responses', 'partitions', [ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH]);

interface TopicSpec {
  plan(site: PartitionErrorSite, error: PartitionError): (() => unknown) | null;
}

interface GroupSpec {
  /** The request's group list (ids or objects with groupId) and the response's. */
  readonly groups: string;
  readonly responseGroups: string;
}

const OFFSET_FETCH_GROUPS: GroupSpec = { groups: 'groups', responseGroups: 'groups' };

const SPECS = new Map<number, TopicSpec | GroupSpec>([
  // Produce: acks=0 has no response; as Kafka does when a partition of one fails, the connection closes after the rest is appended.
  [0, {
    plan: (site, error) => {
      const plan = filtered(produceLayout, (s, e, response) => {
        if (s.apiVersion >= PRODUCE_LEADER_HINTS) produceHints(s, e, response);
      })(site, error);
      if (plan === null || (site.request as Obj)['acks'] !== 0) return plan;
      return async () => {
        const { kept } = take(produceLayout.topics(site.request as Obj, site.apiVersion)!, produceLayout, site, error.match);
        await site.handle(produceLayout.withTopics(site.request as Obj, kept), (response) => response);
        throw new CloseConnection('an injected Produce error (acks=0) has no response to carry it', true);
      };
    },
  }],
  [1, { plan: fetchPlan }],
  [2, { plan: filtered(simple('topics', 'partitions', 'partitionIndex', 'topics', 'partitions')) }],
  [8, { plan: filtered(simple('topics', 'partitions', 'partitionIndex', 'topics', 'partitions')) }],
  [9, { plan: offsetFetchPlan }],
  [21, { plan: filtered(simple('topics', 'partitions', 'partitionIndex', 'topics', 'partitions')) }],
  [23, { plan: filtered(simple('topics', 'partitions', 'partition', 'topics', 'partitions')) }],
  [24, { plan: addPartitionsPlan }],
  [28, { plan: filtered(simple('topics', 'partitions', 'partitionIndex', 'topics', 'partitions')) }],
  [61, { plan: filtered(simple('topics', 'partitionIndexes', null, 'topics', 'partitions')) }],
  [SHARE_FETCH_KEY, { plan: shareFetchPlan }],
  [79, { plan: shareAcknowledgePlan }],
  [15, { groups: 'groups', responseGroups: 'groups' }],
  [42, { groups: 'groupsNames', responseGroups: 'results' }],
  [69, { groups: 'groupIds', responseGroups: 'groups' }],
  [77, { groups: 'groupIds', responseGroups: 'groups' }],
  [89, { groups: 'groupIds', responseGroups: 'groups' }],
]);

/**
 * Fetch: handled whole (read-only; the partitions stay in the fetch session) without a long poll, as a partition error
 * ends Kafka's at once; the named partitions' answers are replaced by the error as from a broker that no longer
 * leads them (unknown high watermark, LSO and log start, no records).
 */
function fetchPlan(site: PartitionErrorSite, error: PartitionError): () => unknown {
  const request = site.request as Obj;
  const { faulted } = take(request['topics'] as Obj[], fetchLayout, site, error.match);
  const entries = faulted.map((t) => ({
    topic: t['topic'], topicId: t['topicId'],
    partitions: (t['partitions'] as Obj[]).map((p) => ({
      ...createPartitionData(), partitionIndex: p['partition'], errorCode: error.code, highWatermark: NO_OFFSET, abortedTransactions: null, records: EMPTY,
    })),
  }));
  return () => site.handle({ ...request, maxWaitMs: faulted.length > 0 ? 0 : request['maxWaitMs'] }, (response) => {
    const r = response as Obj;
    if (r['errorCode'] !== ErrorCode.NONE) return response;
    mergeTopics(site, r['responses'] as Obj[], entries, 'partitions');
    if (site.apiVersion >= FETCH_LEADER_HINTS) fetchHints(site, error, r);
    return response;
  });
}

/** OffsetFetch: per partition, in v1-7's one group or in each of v8+'s groups (a group-only rule: see groupErrors). */
function offsetFetchPlan(site: PartitionErrorSite, error: PartitionError): (() => unknown) | null {
  const request = site.request as Obj;
  const entry = (index: number) => ({
    ...createOffsetFetchResponsePartition(), partitionIndex: index, committedOffset: NO_OFFSET, committedLeaderEpoch: -1, metadata: '', errorCode: error.code,
  });
  const layout = simple('topics', 'partitionIndexes', null, 'topics', 'partitions');
  const split = (topics: Obj[] | null) => {
    if (topics === null) return { kept: null, entries: [] as Obj[] };
    const { kept, faulted } = take(topics, layout, site, error.match);
    return { kept, entries: faulted.map((t) => ({ name: t['name'], topicId: t['topicId'], partitions: (t['partitionIndexes'] as number[]).map(entry) })) };
  };
  if (site.apiVersion < OFFSET_FETCH_BATCHED) {
    const { kept, entries } = split(request['topics'] as Obj[] | null);
    return () => site.handle({ ...request, topics: kept }, (response) => {
      const r = response as Obj;
      if (r['errorCode'] === ErrorCode.NONE) mergeTopics(site, r['topics'] as Obj[], entries.map(({ topicId: _, ...t }) => t), 'partitions');
      return response;
    });
  }
  const groups = (request['groups'] as Obj[]).map((g) => {
    const named = error.match.groupId === undefined || error.match.groupId === g['groupId'];
    return named ? { group: g, ...split(g['topics'] as Obj[] | null) } : { group: g, kept: g['topics'] as Obj[] | null, entries: [] as Obj[] };
  });
  return () => site.handle({ ...request, groups: groups.map(({ group, kept }) => ({ ...group, topics: kept })) }, (response) => {
    for (const { group, entries } of groups) {
      const answered = ((response as Obj)['groups'] as Obj[]).find((g) => g['groupId'] === group['groupId']);
      if (answered !== undefined && answered['errorCode'] === ErrorCode.NONE) mergeTopics(site, answered['topics'] as Obj[], entries, 'partitions');
    }
    return response;
  });
}

/** AddPartitionsToTxn v0-3: Kafka fails the whole request when any partition fails; the others are OPERATION_NOT_ATTEMPTED. */
function addPartitionsPlan(site: PartitionErrorSite, error: PartitionError): (() => unknown) | null {
  if (site.apiVersion >= ADD_PARTITIONS_BATCHED) return null;
  const request = site.request as Obj;
  const layout = simple('v3AndBelowTopics', 'partitions', null, 'resultsByTopicV3AndBelow', 'resultsByPartition');
  const { faulted } = take(request['v3AndBelowTopics'] as Obj[], layout, site, error.match);
  return async () => {
    const response = (await site.errorObject(request, ErrorCode.OPERATION_NOT_ATTEMPTED, null)) as Obj;
    const errors = (await site.errorObject({ ...request, v3AndBelowTopics: faulted }, error.code, error.message)) as Obj;
    mergeTopics(site, response['resultsByTopicV3AndBelow'] as Obj[], errors['resultsByTopicV3AndBelow'] as Obj[], 'resultsByPartition');
    return site.answer(response);
  };
}

/** ShareFetch and ShareAcknowledge (v1+) name a NOT_LEADER_OR_FOLLOWER partition's leader, as Produce and Fetch do. */
const shareHints = leaderHints('responses', 'partitions', [ErrorCode.NOT_LEADER_OR_FOLLOWER]);

/**
 * ShareFetch: the share session holds partitions beyond those a request lists (an incremental request names only
 * new ones and those it acknowledges), so the named partitions cannot be taken out of the request: the handler asks
 * `faulted` of every partition it serves and leaves the named ones out before anything is acquired or acknowledged on
 * them (no record is locked for a member that never sees it), answering each the error, with its leader. The others
 * are served as usual, without a long poll (an error ends it at once, as on Fetch).
 */
function shareFetchPlan(site: PartitionErrorSite, error: PartitionError): () => unknown {
  const { topic, partition } = error.match;
  const fault = { code: error.code, message: error.message };
  const faulted: FaultedPartition = (topicId, index) =>
    (topic === undefined || topic === site.topicName(topicId)) && (partition === undefined || partition === index) ? fault : undefined;
  return () => site.handle(site.request, (response) => {
    const r = response as Obj;
    if (r['errorCode'] === ErrorCode.NONE) shareHints(site, error, r);
    return response;
  }, faulted);
}

/** The partitions of the requesting member's share session (topic name, index): a rule naming one matches its ShareFetch. */
export function* shareSessionPartitions(broker: BrokerState, request: unknown): Iterable<readonly [string, number]> {
  const { groupId, memberId } = request as { groupId: string | null; memberId: string | null };
  if (groupId === null || memberId === null) return;
  const session = broker.replicaManager.sharePartitions.sessions.get(groupId, memberId);
  for (const ref of session?.partitions.values() ?? []) {
    const name = broker.topics.getById(ref.topicId)?.name;
    if (name !== undefined) yield [name, ref.partition];
  }
}

/** ShareAcknowledge: the named partitions' acknowledgements are not applied; each answers the error (with its leader). */
function shareAcknowledgePlan(site: PartitionErrorSite, error: PartitionError): () => unknown {
  const request = site.request as Obj;
  const layout = simple('topics', 'partitions', 'partitionIndex', 'responses', 'partitions');
  const { kept, faulted } = take(request['topics'] as Obj[], layout, site, error.match);
  const entries = faulted.map((t) => ({
    topicId: t['topicId'],
    partitions: (t['partitions'] as Obj[]).map((p) => ({
      partitionIndex: p['partitionIndex'], errorCode: error.code, errorMessage: error.message, currentLeader: createLeaderIdAndEpoch(),
    })),
  }));
  return () => site.handle({ ...request, topics: kept }, (response) => {
    const r = response as Obj;
    if (r['errorCode'] !== ErrorCode.NONE) return response;
    mergeTopics(site, r['responses'] as Obj[], entries, 'partitions');
    shareHints(site, error, r);
    return response;
  });
}

// ---- groups ----

/** A rule naming a group, on an API that lists groups: that group's entry is the API's error entry, the others are handled. */
async function groupErrors(site: PartitionErrorSite, error: PartitionError, spec: GroupSpec): Promise<unknown> {
  const request = site.request as Obj;
  const idOf = (g: unknown) => (typeof g === 'string' ? g : (g as Obj)['groupId']);
  const all = request[spec.groups] as unknown[];
  const named = all.filter((g) => idOf(g) === error.match.groupId);
  const rest = all.filter((g) => idOf(g) !== error.match.groupId);
  const errors = (await site.errorObject({ ...request, [spec.groups]: named }, error.code, error.message)) as Obj;
  return site.handle({ ...request, [spec.groups]: rest }, (response) => {
    const list = (response as Obj)[spec.responseGroups] as Obj[];
    list.push(...(errors[spec.responseGroups] as Obj[]));
    return response;
  });
}
