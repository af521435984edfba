/**
 * What a decoded request names: its topics (with their partitions), groups and transactional ids, read from the
 * generated request types' field names (topics[].name / .topic / .topicId, partitions[].partitionIndex / .partition /
 * .index, groupId, groups, transactionalId, FindCoordinator's keys). Walked only for a rule that asks about them.
 */
const GROUP_KEY_TYPE = 0;
const TRANSACTION_KEY_TYPE = 1;
const MAX_DEPTH = 6;

export interface RequestTargets {
  /** Topic name → the partitions named under it (empty: the topic as a whole). */
  readonly topics: Map<string, Set<number>>;
  readonly groups: Set<string>;
  readonly transactionalIds: Set<string>;
}

/** `topicName` resolves a topic id (Fetch v13+, Produce v13+) to its name. */
export function requestTargets(request: unknown, topicName: (topicId: string) => string | undefined): RequestTargets {
  const targets: RequestTargets = { topics: new Map(), groups: new Set(), transactionalIds: new Set() };
  walk(request, null, '', 0, targets, topicName);
  return targets;
}

function walk(value: unknown, topic: Set<number> | null, key: string, depth: number, into: RequestTargets, topicName: (id: string) => string | undefined): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (Array.isArray(value)) {
    const lower = key.toLowerCase();
    for (const item of value) {
      if (typeof item === 'string') {
        if (lower.includes('topic')) topicOf(into, item);
        else if (lower === 'groups' || lower === 'groupids') into.groups.add(item);
        else if (lower === 'transactionalids') into.transactionalIds.add(item);
      } else if (typeof item === 'number' && topic !== null && lower.includes('partition')) {
        topic.add(item);
      } else {
        walk(item, topic, key, depth + 1, into, topicName);
      }
    }
    return;
  }
  const record = value as Record<string, unknown>;
  const inTopicList = key.toLowerCase().includes('topic');
  let own = topic;
  if (inTopicList) {
    const name = [record['name'], record['topic'], record['topicName']].find((v) => typeof v === 'string' && v !== '') as string | undefined;
    const id = typeof record['topicId'] === 'string' ? topicName(record['topicId']) : undefined;
    if (name !== undefined || id !== undefined) own = topicOf(into, (name ?? id)!);
  }
  if (own !== null && key.toLowerCase().includes('partition')) {
    const index = [record['partitionIndex'], record['partition'], record['index']].find((v) => typeof v === 'number');
    if (typeof index === 'number') own.add(index);
  }
  for (const [field, v] of Object.entries(record)) {
    if (typeof v === 'string') {
      if (field === 'groupId' && v !== '') into.groups.add(v);
      else if (field === 'transactionalId' && v !== '') into.transactionalIds.add(v);
    } else if (typeof v === 'object') {
      walk(v, own, field, depth + 1, into, topicName);
    }
  }
  // FindCoordinator: key (v0-3) or coordinatorKeys (v4+) of key type group or transaction.
  const keyType = record['keyType'];
  if (keyType === GROUP_KEY_TYPE || keyType === TRANSACTION_KEY_TYPE) {
    const keys = [record['key'], ...(Array.isArray(record['coordinatorKeys']) ? record['coordinatorKeys'] : [])];
    for (const k of keys) if (typeof k === 'string' && k !== '') (keyType === GROUP_KEY_TYPE ? into.groups : into.transactionalIds).add(k);
  }
}

function topicOf(into: RequestTargets, name: string): Set<number> {
  let partitions = into.topics.get(name);
  if (partitions === undefined) into.topics.set(name, (partitions = new Set()));
  return partitions;
}
