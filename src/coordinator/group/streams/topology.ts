/**
 * A streams group's topology as its first member sent it (the StreamsGroupTopology record's value), and Kafka
 * 4.3.1's InternalTopicManager.configureTopics over the broker's topics: missing source topics, the partition counts
 * of repartition topics (from their sinks' subtopologies, copartition groups enforced) and of changelog topics (one
 * per task), the number of tasks of each subtopology, and the internal topics still to be created.
 */
import type { StreamsGroupTopologyValue, Subtopology, TopicInfo } from '../../../protocol/generated/internal/group-coordinator/streams-group-topology-value.js';
import type { Topology } from '../../../protocol/generated/streams-group-heartbeat.js';
import { GroupError } from '../group-error.js';
import type { TopicsImage } from '../consumer/topics-image.js';

/** Kafka's StreamsGroupHeartbeatResponse.Status codes. */
export const StreamsStatus = {
  STALE_TOPOLOGY: 0,
  MISSING_SOURCE_TOPICS: 1,
  INCORRECTLY_PARTITIONED_TOPICS: 2,
  MISSING_INTERNAL_TOPICS: 3,
  SHUTDOWN_APPLICATION: 4,
  ASSIGNMENT_DELAYED: 5,
} as const;

/** The heartbeat's topology as the record stores it (Kafka's convertToStreamsGroupTopologyRecord). */
export function topologyValueOf(topology: Topology): StreamsGroupTopologyValue {
  const info = (t: Topology['subtopologies'][number]['stateChangelogTopics'][number]): TopicInfo => ({
    name: t.name,
    partitions: t.partitions,
    replicationFactor: t.replicationFactor,
    topicConfigs: t.topicConfigs.map((c) => ({ key: c.key, value: c.value })),
  });
  return {
    epoch: topology.epoch,
    subtopologies: topology.subtopologies.map((s) => ({
      subtopologyId: s.subtopologyId,
      sourceTopics: [...s.sourceTopics],
      sourceTopicRegex: [...s.sourceTopicRegex],
      stateChangelogTopics: s.stateChangelogTopics.map(info),
      repartitionSinkTopics: [...s.repartitionSinkTopics],
      repartitionSourceTopics: s.repartitionSourceTopics.map(info),
      copartitionGroups: s.copartitionGroups.map((g) => ({ sourceTopics: [...g.sourceTopics], sourceTopicRegex: [...g.sourceTopicRegex], repartitionSourceTopics: [...g.repartitionSourceTopics] })),
    })),
  };
}

/** Structural equality of two topologies (Kafka's StreamsTopology.equals: epoch and subtopologies by id). */
export function sameTopology(a: StreamsGroupTopologyValue, b: StreamsGroupTopologyValue): boolean {
  if (a.epoch !== b.epoch || a.subtopologies.length !== b.subtopologies.length) return false;
  const byId = new Map(b.subtopologies.map((s) => [s.subtopologyId, s]));
  return a.subtopologies.every((s) => {
    const other = byId.get(s.subtopologyId);
    return other !== undefined && JSON.stringify(s) === JSON.stringify(other);
  });
}

/** Every topic the topology reads or keeps state in (Kafka's requiredTopics): sources, repartition sources, changelogs. */
export function requiredTopics(topology: StreamsGroupTopologyValue): Set<string> {
  const names = new Set<string>();
  for (const s of topology.subtopologies) {
    for (const t of s.sourceTopics) names.add(t);
    for (const t of s.repartitionSourceTopics) names.add(t.name);
    for (const t of s.stateChangelogTopics) names.add(t.name);
  }
  return names;
}

/** The subtopology each source or repartition source topic feeds (Kafka's sourceTopicMap). */
export function subtopologyOfTopic(topology: StreamsGroupTopologyValue, topic: string): Subtopology | undefined {
  return topology.subtopologies.find((s) => s.sourceTopics.includes(topic) || s.repartitionSourceTopics.some((t) => t.name === topic));
}

export interface ConfiguredInternalTopic {
  readonly name: string;
  readonly numberOfPartitions: number;
  /** 0: the broker's default. */
  readonly replicationFactor: number;
  readonly topicConfigs: ReadonlyMap<string, string>;
}

export interface ConfiguredSubtopology {
  readonly numberOfTasks: number;
  readonly sourceTopics: ReadonlySet<string>;
  readonly repartitionSourceTopics: ReadonlyMap<string, ConfiguredInternalTopic>;
  readonly repartitionSinkTopics: ReadonlySet<string>;
  readonly stateChangelogTopics: ReadonlyMap<string, ConfiguredInternalTopic>;
}

export interface TopicConfigurationError {
  readonly status: number;
  readonly message: string;
}

export interface ConfiguredTopology {
  readonly topologyEpoch: number;
  /** Sorted by subtopology id; undefined when the configuration failed. */
  readonly subtopologies: ReadonlyMap<string, ConfiguredSubtopology> | undefined;
  readonly internalTopicsToCreate: readonly ConfiguredInternalTopic[];
  readonly error: TopicConfigurationError | null;
}

export const isReady = (t: ConfiguredTopology): boolean => t.error === null;

class TopicConfigurationException extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** At most three names, then how many more (Kafka's summarizeTopics). */
function summarize(topics: readonly string[]): string {
  if (topics.length === 0) return '<none>';
  return topics.slice(0, 3).join(', ') + (topics.length > 3 ? ` and ${topics.length - 3} additional topics` : '');
}

const invalidTopology = (message: string): GroupError => new GroupError('STREAMS_INVALID_TOPOLOGY', message);

export function configureTopics(topology: StreamsGroupTopologyValue, image: TopicsImage): ConfiguredTopology {
  try {
    const missing = [...new Set(topology.subtopologies.flatMap((s) => s.sourceTopics.filter((t) => image.byName(t) === undefined)))].sort();
    if (missing.length > 0) throw new TopicConfigurationException(StreamsStatus.MISSING_SOURCE_TOPICS, `Source topics ${summarize(missing)} are missing.`);
    const decided = decidePartitionCounts(topology, image);
    const count = (topic: string): number | undefined => image.byName(topic)?.numPartitions ?? decided.get(topic);
    const configured = new Map<string, ConfiguredSubtopology>();
    for (const s of [...topology.subtopologies].sort((a, b) => (a.subtopologyId < b.subtopologyId ? -1 : a.subtopologyId > b.subtopologyId ? 1 : 0))) {
      const inputs = [...s.sourceTopics, ...s.repartitionSourceTopics.map((t) => t.name)];
      const numberOfTasks = Math.max(...inputs.map((t) => count(t) ?? fail(`Number of partitions must be set for topic ${t}`)));
      const internal = (t: TopicInfo): ConfiguredInternalTopic => ({
        name: t.name,
        numberOfPartitions: t.partitions !== 0 ? t.partitions : (decided.get(t.name) ?? fail(`Number of partitions must be set for topic ${t.name}`)),
        replicationFactor: t.replicationFactor,
        topicConfigs: new Map(t.topicConfigs.map((c) => [c.key, c.value])),
      });
      configured.set(s.subtopologyId, {
        numberOfTasks,
        sourceTopics: new Set(s.sourceTopics),
        repartitionSourceTopics: new Map(s.repartitionSourceTopics.map((t) => [t.name, internal(t)])),
        repartitionSinkTopics: new Set(s.repartitionSinkTopics),
        stateChangelogTopics: new Map(s.stateChangelogTopics.map((t) => [t.name, internal(t)])),
      });
    }
    const toCreate = new Map<string, ConfiguredInternalTopic>();
    for (const s of configured.values()) {
      for (const t of s.repartitionSourceTopics.values()) toCreate.set(t.name, t);
      for (const t of s.stateChangelogTopics.values()) toCreate.set(t.name, t);
    }
    for (const name of requiredTopics(topology)) {
      const existing = image.byName(name);
      const expected = toCreate.get(name);
      if (existing === undefined) continue;
      toCreate.delete(name);
      if (expected !== undefined && existing.numPartitions !== expected.numberOfPartitions) {
        throw new TopicConfigurationException(
          StreamsStatus.INCORRECTLY_PARTITIONED_TOPICS,
          `Existing topic ${name} has different number of partitions: expected ${expected.numberOfPartitions}, found ${existing.numPartitions}`,
        );
      }
    }
    const missingInternal = [...toCreate.values()];
    return {
      topologyEpoch: topology.epoch,
      subtopologies: configured,
      internalTopicsToCreate: missingInternal,
      error: missingInternal.length === 0
        ? null
        : { status: StreamsStatus.MISSING_INTERNAL_TOPICS, message: `Internal topics are missing: ${summarize(missingInternal.map((t) => t.name))}` },
    };
  } catch (error) {
    if (!(error instanceof TopicConfigurationException)) throw error;
    return { topologyEpoch: topology.epoch, subtopologies: undefined, internalTopicsToCreate: [], error: { status: error.status, message: error.message } };
  }
}

function fail(message: string): never {
  throw new Error(message);
}

/** Kafka's decidePartitionCounts: repartition topics from their sinks, copartitioning, then changelogs. */
function decidePartitionCounts(topology: StreamsGroupTopologyValue, image: TopicsImage): Map<string, number> {
  const decided = new Map<string, number>();
  const count = (topic: string): number | undefined => image.byName(topic)?.numPartitions ?? decided.get(topic);
  // Repartition topics (RepartitionTopics.setup).
  for (const s of topology.subtopologies) for (const t of s.repartitionSourceTopics) if (t.partitions !== 0) decided.set(t.name, t.partitions);
  let needed: boolean;
  do {
    needed = false;
    let progress = false;
    for (const s of topology.subtopologies) {
      for (const sink of s.repartitionSinkTopics) {
        if (decided.has(sink)) continue;
        let n: number | undefined;
        for (const t of s.repartitionSourceTopics) {
          const c = decided.get(t.name);
          if (c !== undefined && (n === undefined || c > n)) n = c;
        }
        for (const t of s.sourceTopics) {
          const c = image.byName(t)?.numPartitions;
          if (c !== undefined && (n === undefined || c > n)) n = c;
        }
        if (n === undefined) needed = true;
        else {
          decided.set(sink, n);
          progress = true;
        }
      }
    }
    if (!progress && needed) throw invalidTopology('Failed to compute number of partitions for all repartition topics. There may be loops in the topology that cannot be resolved.');
  } while (needed);
  for (const s of topology.subtopologies) {
    if (s.repartitionSourceTopics.some((t) => !decided.has(t.name))) {
      throw invalidTopology('Failed to compute number of partitions for all repartition topics, because a repartition source topic is never used as a sink topic.');
    }
  }
  // Copartition groups (CopartitionedTopicsEnforcer).
  const fixed = new Set(topology.subtopologies.flatMap((s) => s.repartitionSourceTopics.filter((t) => t.partitions !== 0).map((t) => t.name)));
  const flexible = new Set(topology.subtopologies.flatMap((s) => s.repartitionSourceTopics.filter((t) => t.partitions === 0).map((t) => t.name)));
  const partitionsOf = (t: string): number => count(t) ?? fail(`Number of partitions is not set for topic: ${t}`);
  for (const s of topology.subtopologies) {
    for (const g of s.copartitionGroups) {
      const group = new Set([...g.sourceTopics.map((i) => s.sourceTopics[i]!), ...g.repartitionSourceTopics.map((i) => s.repartitionSourceTopics[i]!.name)]);
      if (group.size === 0) continue;
      const repartition = new Map([...group].filter((t) => fixed.has(t) || flexible.has(t)).map((t) => [t, partitionsOf(t)] as const));
      const others = new Map([...group].filter((t) => !repartition.has(t)).map((t) => [t, partitionsOf(t)] as const));
      const sortedText = (m: ReadonlyMap<string, number>): string => `{${[...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(', ')}}`;
      let n: number;
      if (repartition.size === group.size) {
        if (fixed.size > 0) {
          const first = partitionsOf(fixed.values().next().value!);
          for (const t of fixed) {
            if (partitionsOf(t) !== first) throw new TopicConfigurationException(StreamsStatus.INCORRECTLY_PARTITIONED_TOPICS, `Following topics do not have the same number of partitions: [${sortedText(repartition)}]`);
          }
          n = first;
        } else {
          n = Math.max(0, ...repartition.values());
          if (n === 0) throw invalidTopology(`All topics in the copartition group had undefined partition number: [${[...repartition.keys()].join(', ')}]`);
        }
      } else {
        n = others.values().next().value!;
        for (const v of others.values()) {
          if (v !== n) throw new TopicConfigurationException(StreamsStatus.INCORRECTLY_PARTITIONED_TOPICS, `Following topics do not have the same number of partitions: [${sortedText(others)}]`);
        }
      }
      for (const [t, c] of repartition) {
        decided.set(t, n);
        if (fixed.has(t) && c !== n) {
          throw new TopicConfigurationException(
            StreamsStatus.INCORRECTLY_PARTITIONED_TOPICS,
            `Number of partitions [${c}] of repartition topic [${t}] doesn't match number of partitions [${n}] of the source topic.`,
          );
        }
      }
    }
  }
  // Changelog topics: one partition per task (ChangelogTopics.setup).
  for (const s of topology.subtopologies) {
    const inputs = [...s.sourceTopics, ...s.repartitionSourceTopics.map((t) => t.name)];
    if (inputs.length === 0) throw invalidTopology(`No source topics found for subtopology ${s.subtopologyId}`);
    const n = Math.max(...inputs.map((t) => count(t) ?? fail(`No partition count for source topic ${t}`)));
    for (const t of s.stateChangelogTopics) decided.set(t.name, n);
  }
  return decided;
}
