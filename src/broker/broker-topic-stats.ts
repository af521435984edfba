/**
 * Kafka's BrokerTopicStats, the counts behind its BrokerTopicMetrics (MessagesInPerSec, BytesInPerSec,
 * BytesOutPerSec): records and bytes appended per topic (ReplicaManager's appends: Produce and
 * __transaction_state; the group and share coordinators' writes to __consumer_offsets and __share_group_state,
 * which Kafka also appends through ReplicaManager, so its all-topics meter includes them) and record bytes sent in
 * Fetch responses. Plain numbers, one object per topic made on its first
 * count: the hot paths add to fields, nothing is allocated per request. Read at scrape time (src/http/metrics/).
 */
export class TopicStats {
  messagesIn = 0;
  bytesIn = 0;
  bytesOut = 0;
}

export class BrokerTopicStats {
  private readonly byTopic = new Map<string, TopicStats>();

  of(topic: string): TopicStats {
    let stats = this.byTopic.get(topic);
    if (stats === undefined) {
      stats = new TopicStats();
      this.byTopic.set(topic, stats);
    }
    return stats;
  }

  /** Counts an append a coordinator made straight to its log: `records` records in `bytes` bytes of batches. */
  countAppend(topic: string, records: number, bytes: number): void {
    const stats = this.of(topic);
    stats.messagesIn += records;
    stats.bytesIn += bytes;
  }

  /** Every topic counted so far. */
  entries(): IterableIterator<[string, TopicStats]> {
    return this.byTopic.entries();
  }

  /** A deleted topic's counts go with it, as Kafka's removeMetrics: a topic created again under its name starts at 0. */
  remove(topic: string): void {
    this.byTopic.delete(topic);
  }
}
