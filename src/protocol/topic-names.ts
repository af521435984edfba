/**
 * Kafka's rules for topic names (org.apache.kafka.common.internals.Topic), with Kafka's wording: the one place
 * Metadata, CreateTopics, DescribeConfigs, AlterConfigs, DescribeTopicPartitions and auto-creation check a name.
 */

export const CONSUMER_OFFSETS_TOPIC = '__consumer_offsets';
export const TRANSACTION_STATE_TOPIC = '__transaction_state';
export const SHARE_GROUP_STATE_TOPIC = '__share_group_state';
/** Kafka's own metadata log: never a topic a client may create. */
export const CLUSTER_METADATA_TOPIC = '__cluster_metadata';

const MAX_NAME_LENGTH = 249;
const LEGAL_CHARS = /^[a-zA-Z0-9._-]*$/;

/** The topics Kafka itself owns; Metadata reports them with is_internal = true. */
const INTERNAL_TOPICS: ReadonlySet<string> = new Set([CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC, SHARE_GROUP_STATE_TOPIC]);

/** Why `name` is not a legal topic name, in Kafka's words, or null when it is legal. */
function invalidReason(name: string): string | null {
  if (name === '') return 'the empty string is not allowed';
  if (name === '.' || name === '..') return `'${name}' is not allowed`;
  // JavaScript's length counts UTF-16 units, as Java's String.length() does.
  if (name.length > MAX_NAME_LENGTH) return `the length of '${name}' is longer than the max allowed length ${MAX_NAME_LENGTH}`;
  if (!LEGAL_CHARS.test(name)) return `'${name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'`;
  return null;
}

/** "Topic name is invalid: ..." as Kafka's InvalidTopicException words it, or null for a legal name. */
export function invalidTopicNameMessage(name: string): string | null {
  const reason = invalidReason(name);
  return reason === null ? null : `Topic name is invalid: ${reason}`;
}

export function isValidTopicName(name: string): boolean {
  return invalidReason(name) === null;
}

export function isInternalTopic(name: string): boolean {
  return INTERNAL_TOPICS.has(name);
}

/** Metric names map '.' to '_', so two names that differ only there would collide. */
function unifyCollisionChars(name: string): string {
  return name.replaceAll('.', '_');
}

/** An existing topic the new name collides with ('.' vs '_'), if any; an exact match is not a collision. */
export function collidingTopic(name: string, existing: Iterable<string>): string | undefined {
  if (!name.includes('.') && !name.includes('_')) return undefined;
  const unified = unifyCollisionChars(name);
  for (const other of existing) {
    if (other !== name && unifyCollisionChars(other) === unified) return other;
  }
  return undefined;
}
