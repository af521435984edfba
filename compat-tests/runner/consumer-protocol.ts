// The KIP-848 consumer group protocol's cells (group.protocol=consumer): which clients speak it, and the broker
// settings both targets start with so its cells run in seconds.
//
// A consumer-protocol member's session timeout and heartbeat interval are the broker's (or the group's), never the
// client's: Kafka's defaults (45 s, 5 s) would make a crashed member take 45 s to leave and each reconciliation step
// wait for a 5 s heartbeat. These settings touch consumer-protocol groups only (classic groups read group.min/
// max.session.timeout.ms), so every other cell runs as before.
export const CONSUMER_PROTOCOL_BROKER_SETTINGS: Readonly<Record<string, string>> = {
  'group.consumer.min.session.timeout.ms': '6000',
  'group.consumer.session.timeout.ms': '6000',
  'group.consumer.min.heartbeat.interval.ms': '500',
  'group.consumer.heartbeat.interval.ms': '500',
};

/**
 * The clients that speak the consumer protocol: kafka-clients 4.3.1 (group.protocol=consumer), librdkafka 2.16
 * through confluent-kafka (group.protocol=consumer), franz-go 1.22 (kgo.ServerSideBalancer) and @platformatic/kafka
 * 1.35 (groupProtocol: 'consumer'). kafkajs 2.2.4, kafka-python 3.0.12 and Sarama 1.61 have no ConsumerGroupHeartbeat
 * client (each FINDINGS.md); the stock tools' and kcat's cells are the same clients' (console consumer, librdkafka).
 */
export const CONSUMER_PROTOCOL_CLIENTS: readonly string[] = ['platformatic', 'java-client', 'confluent-kafka', 'franz-go'];
