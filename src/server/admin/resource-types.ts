/** Kafka's ConfigResource.Type ids (DescribeConfigs, AlterConfigs, IncrementalAlterConfigs). */
export const ResourceType = {
  TOPIC: 2,
  BROKER: 4,
  BROKER_LOGGER: 8,
  CLIENT_METRICS: 16,
  GROUP: 32,
} as const;
