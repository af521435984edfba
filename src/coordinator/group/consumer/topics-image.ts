/**
 * The topics a consumer group coordinator sees (Kafka's CoordinatorMetadataImage, topics only): names resolve to
 * ids for the assignment, ids back to names, partition counts and racks for the assignors and the metadata hash.
 */
export interface TopicImage {
  readonly id: string;
  readonly name: string;
  readonly numPartitions: number;
  /** Racks of the partition's replicas (empty when unknown). */
  racks(partition: number): readonly string[];
}

export interface TopicsImage {
  byName(name: string): TopicImage | undefined;
  byId(id: string): TopicImage | undefined;
  /** Every topic's name (regular expression subscriptions are resolved against them, internal topics included, as in Kafka). */
  names(): Iterable<string>;
}

/** Topic ids of the names that exist in the image (Kafka's TopicIds: a name not in the image has no id). */
export function topicIdsOf(names: Iterable<string>, image: TopicsImage): Set<string> {
  const ids = new Set<string>();
  for (const name of names) {
    const topic = image.byName(name);
    if (topic !== undefined) ids.add(topic.id);
  }
  return ids;
}

/** An image over a fixed list of topics (tests, and callers that build one from the broker's catalog). */
export class StaticTopicsImage implements TopicsImage {
  private readonly topicsByName = new Map<string, TopicImage>();
  private readonly ids = new Map<string, TopicImage>();

  constructor(topics: readonly { id: string; name: string; numPartitions: number; racks?: (partition: number) => readonly string[] }[]) {
    for (const t of topics) {
      const topic: TopicImage = { id: t.id, name: t.name, numPartitions: t.numPartitions, racks: t.racks ?? (() => []) };
      this.topicsByName.set(t.name, topic);
      this.ids.set(t.id, topic);
    }
  }

  byName(name: string): TopicImage | undefined {
    return this.topicsByName.get(name);
  }

  byId(id: string): TopicImage | undefined {
    return this.ids.get(id);
  }

  names(): Iterable<string> {
    return this.topicsByName.keys();
  }
}
