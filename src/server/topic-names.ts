/** Kafka's rules for topic names (org.apache.kafka.common.internals.Topic), for handlers to share. */

const MAX_NAME_LENGTH = 249;
const LEGAL_CHARS = /^[a-zA-Z0-9._-]+$/;

/** The topics Kafka itself owns; Metadata reports them with is_internal = true. */
const INTERNAL_TOPICS: ReadonlySet<string> = new Set(['__consumer_offsets', '__transaction_state', '__share_group_state']);

/** Why a name is not a legal topic name, or null when it is. */
export function topicNameError(name: string): string | null {
  if (name === '') return 'Topic name is illegal, it can\'t be empty';
  if (name === '.' || name === '..') return 'Topic name cannot be "." or ".."';
  if (name.length > MAX_NAME_LENGTH) return `Topic name is illegal, it can't be longer than ${MAX_NAME_LENGTH} characters, topic name: ${name}`;
  if (!LEGAL_CHARS.test(name)) {
    return `Topic name "${name}" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`;
  }
  return null;
}

export function isInternalTopic(name: string): boolean {
  return INTERNAL_TOPICS.has(name);
}
