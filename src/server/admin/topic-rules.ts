/**
 * Kafka's checks on a new topic's name, with the messages Kafka's controller returns
 * (org.apache.kafka.common.internals.Topic.validate and the '.'/'_' collision rule).
 */
import { topicNameError } from '../topic-names.js';

const MAX_NAME_LENGTH = 249;

/** "Topic name is invalid: ..." as Kafka words it, or null for a legal name. */
export function invalidTopicNameMessage(name: string): string | null {
  if (topicNameError(name) === null) return null;
  let reason: string;
  if (name === '') reason = 'the empty string is not allowed';
  else if (name === '.' || name === '..') reason = `'${name}' is not allowed`;
  else if (name.length > MAX_NAME_LENGTH) reason = `the length of '${name}' is longer than the max allowed length ${MAX_NAME_LENGTH}`;
  else reason = `'${name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'`;
  return `Topic name is invalid: ${reason}`;
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

/** Kafka's own metadata log: never a topic a client may create. */
export const CLUSTER_METADATA_TOPIC = '__cluster_metadata';
