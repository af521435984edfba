/**
 * The topics the broker serves, as the Metadata handler sees them. A narrow seam: the storage work
 * backs it with real topics; tests fill the in-memory one.
 */
export interface TopicInfo {
  readonly name: string;
  /** Kafka's Uuid text form (22 chars, URL-safe base64). */
  readonly id: string;
  readonly partitionCount: number;
  readonly internal: boolean;
}

export interface TopicCatalog {
  list(): Iterable<TopicInfo>;
  get(name: string): TopicInfo | undefined;
  getById(id: string): TopicInfo | undefined;
  /**
   * Seam for auto.create.topics.enable: creates a topic a Metadata request named. Absent until
   * storage provides it; then Metadata answers such a topic as Kafka does right after creating it
   * (LEADER_NOT_AVAILABLE, no partitions) and the client retries.
   */
  autoCreate?(name: string): Promise<TopicInfo>;
}

export class MemoryTopicCatalog implements TopicCatalog {
  private readonly byName = new Map<string, TopicInfo>();
  private readonly byId = new Map<string, TopicInfo>();

  constructor(topics: Iterable<TopicInfo> = []) {
    for (const topic of topics) this.add(topic);
  }

  add(topic: TopicInfo): void {
    this.byName.set(topic.name, topic);
    this.byId.set(topic.id, topic);
  }

  list(): Iterable<TopicInfo> {
    return this.byName.values();
  }

  get(name: string): TopicInfo | undefined {
    return this.byName.get(name);
  }

  getById(id: string): TopicInfo | undefined {
    return this.byId.get(id);
  }
}
