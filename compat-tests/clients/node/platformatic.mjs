// @platformatic/kafka scenarios for the compat runner (plain ESM so it loads the client from ./node_modules;
// the TypeScript build never depends on an optional install).
// Usage: node platformatic.mjs <scenario> <bootstrap> <name-prefix>; exit 0 = pass, 1 = fail with the reason on
// stderr; "OBSERVE <key> <json>" lines feed the differential mode (see runner/external.ts).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Admin, Consumer, Producer } from '@platformatic/kafka';
import { authFailure, security } from './security.mjs';

const [scenario, bootstrap, prefix] = process.argv.slice(2);
const LIMIT_MS = 60_000; // stops a broken run from hanging; not a claim about speed
const TOPIC = 2; // ConfigResourceType.TOPIC
const BASE_TIME = 1_700_000_000_000n;
// The broker's group.min.session.timeout.ms: a crashed member is noticed after this long.
const SESSION_TIMEOUT_MS = 6000;
const base = { clientId: 'gregor-compat-platformatic', bootstrapBrokers: [bootstrap], ...security() };

const json = (value) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
const observe = (key, value) => console.log(`OBSERVE ${key} ${json(value)}`);
const numbered = (from, count) => Array.from({ length: count }, (_, i) => `m${from + i}`);

async function withAdmin(work) {
  const admin = new Admin(base);
  try {
    return await work(admin);
  } finally {
    await admin.close();
  }
}

const createTopic = (admin, topic, partitions = 1, configs = []) => admin.createTopics({ topics: [topic], partitions, replicas: 1, configs });
const create = (topic, partitions = 1, configs = []) => withAdmin((admin) => createTopic(admin, topic, partitions, configs));

/** The Kafka error name (UNKNOWN_TOPIC_OR_PARTITION, ...) work fails with. */
async function failsWith(what, work) {
  try {
    await work();
  } catch (error) {
    const inner = error.errors?.find((e) => e.apiId) ?? error.cause?.errors?.find((e) => e.apiId) ?? error;
    return inner.apiId ?? `not a Kafka error: ${inner.message.replaceAll(prefix, '<prefix>')}`;
  }
  throw new Error(`${what} succeeded; Kafka refuses it`);
}

async function produce(messages, options = {}) {
  const producer = new Producer({ ...base, idempotent: false, acks: -1, ...options });
  try {
    const offsets = [];
    for (const message of messages) {
      const result = await producer.send({ messages: [{ partition: 0, ...message }] });
      offsets.push(result.offsets?.[0]?.offset);
    }
    return offsets;
  } finally {
    await producer.close();
  }
}

const produceNumbered = (topic, from, count) => produce(numbered(from, count).map((v) => ({ topic, value: Buffer.from(v) })));

/** Reads with a group until done(received) holds, committing each kept message, then leaves. */
async function readGroup(groupId, topic, done, options = {}) {
  const consumer = new Consumer({ ...base, groupId, maxWaitTime: 500, ...options });
  const received = [];
  try {
    const stream = await consumer.consume({ topics: [topic], mode: 'committed', fallbackMode: 'earliest', autocommit: false, ...options });
    const timer = setTimeout(() => stream.close(), LIMIT_MS);
    for await (const message of stream) {
      received.push(message);
      await message.commit();
      if (done(received)) break;
    }
    clearTimeout(timer);
    await stream.close();
    if (!done(received)) throw new Error(`have ${received.length} records: ${positions(received)}`);
    return received;
  } finally {
    await consumer.close();
  }
}

const atLeast = (n) => (received) => received.length >= n;
const reaches = (offset) => (received) => received.some((m) => Number(m.offset) >= offset);
const positions = (received) => received.map((m) => `${m.partition}:${m.offset}`);
const values = (received) => received.map((m) => (m.value === null || m.value === undefined ? null : m.value.toString()));

async function committed(admin, groupId, topic) {
  const [group] = await admin.listConsumerGroupOffsets({ groups: [groupId] });
  const partition = group?.topics.find((t) => t.name === topic)?.partitions.find((p) => p.partitionIndex === 0);
  return partition === undefined || partition.committedOffset < 0n ? null : Number(partition.committedOffset);
}

async function topicConfigs(admin, topic, names) {
  const [described] = await admin.describeConfigs({ resources: [{ resourceType: TOPIC, resourceName: topic, configurationKeys: names }] });
  return Object.fromEntries(described.configs.map((c) => [c.name, c.value]));
}

async function eventually(what, probe) {
  const deadline = Date.now() + LIMIT_MS;
  for (;;) {
    let last;
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The classic protocol's member timing; under the consumer protocol the broker's (runner/consumer-protocol.ts). */
const CLASSIC_MEMBER = { sessionTimeout: SESSION_TIMEOUT_MS, heartbeatInterval: 500 };
const CONSUMER_MEMBER = { groupProtocol: 'consumer' };

/** A group member reading the topic until stopped; its partitions from the client's assignments. */
async function startMember(groupId, topic, groupOptions = CLASSIC_MEMBER) {
  const consumer = new Consumer({ ...base, groupId, ...groupOptions, maxWaitTime: 500 });
  const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
  stream.on('data', () => {});
  return {
    size: () => (consumer.assignments ?? []).reduce((n, a) => n + a.partitions.length, 0),
    held: () => (consumer.assignments ?? []).flatMap((a) => a.partitions),
    stop: async () => {
      await stream.close();
      await consumer.close(); // a clean leave: LeaveGroup
    },
  };
}

/** kafka-consumer-groups --reset-offsets ... --execute; returns "partition:new-offset" rows. */
async function resetOffsets(group, topic, ...how) {
  const { stdout } = await promisify(execFile)(`${process.env.COMPAT_BIN_DIR}/kafka-consumer-groups`,
    ['--bootstrap-server', bootstrap, '--group', group, '--topic', topic, '--reset-offsets', ...how, '--execute']);
  return stdout.split('\n').map((line) => line.trim().split(/\s+/)).filter((f) => f[0] === group && f[1] === topic).map((f) => `${f[2]}:${f[3]}`);
}

/**
 * group-rebalance's sequence (either protocol): 6 / 3+3 / 2+2+2, a clean leave (3+3), a member in a process of its
 * own killed (2+2+2, then 3+3 once its session ends). memberArgs: the killed member's arguments after the bootstrap.
 */
async function rebalanceSteps(settle, start, memberArgs) {
  const members = [];
  let crasher;
  try {
    const a = await start();
    members.push(a);
    await settle('one', [a], [6], 1);
    const b = await start();
    members.push(b);
    await settle('two', [a, b], [3, 3], 2);
    const c = await start();
    await settle('three', [a, b, c], [2, 2, 2], 3);
    await c.stop();
    await settle('after-leave', [a, b], [3, 3], 2);
    // Killed: it never leaves, the coordinator notices when its session ends.
    crasher = spawn(process.execPath, [fileURLToPath(import.meta.url), 'member', bootstrap, ...memberArgs], { stdio: 'ignore' });
    await settle('rejoin', [a, b], [2, 2], 3);
    crasher.kill('SIGKILL');
    await settle('after-crash', [a, b], [3, 3], 2);
  } finally {
    crasher?.kill('SIGKILL');
    for (const m of members) await m.stop().catch(() => {});
  }
}

const scenarios = {
  async member() {
    // node platformatic.mjs member <bootstrap> <group> <topic> [consumer]: one member until killed (group-rebalance's crash).
    await startMember(prefix, process.argv[5], process.argv[6] === 'consumer' ? CONSUMER_MEMBER : CLASSIC_MEMBER);
    await new Promise(() => setInterval(() => {}, 60_000));
  },

  async 'group-rebalance'() {
    const topic = `${prefix}topic`;
    const group = `${prefix}group`;
    await create(topic, 6);
    const steps = {};
    await withAdmin(async (admin) => {
      const settle = async (step, live, sizes, total) => {
        await eventually(`${step}: sizes ${json(sizes)}`, async () => {
          const have = live.map((m) => m.size()).sort();
          if (json(have) !== json(sizes)) return false;
          const described = (await admin.describeGroups({ groups: [group] })).get(group);
          const count = described?.members.size ?? described?.members.length;
          return described?.state === 'STABLE' || described?.state === 'Stable' ? count === total : false;
        });
        steps[step] = { sizes, members: total };
      };
      await rebalanceSteps(settle, () => startMember(group, topic), [group, topic]);
      observe('steps', steps);
    });
  },

  async 'offset-reset'() {
    const topic = `${prefix}topic`;
    const group = `${prefix}group`;
    await create(topic);
    await produceNumbered(topic, 0, 10);
    await readGroup(group, topic, atLeast(10));
    const table = await resetOffsets(group, topic, '--to-offset', '3');
    assert.deepEqual(table, ['0:3']);
    const resumed = await readGroup(group, topic, reaches(9));
    assert.deepEqual(values(resumed), numbered(3, 7));
    observe('tool', { toOffset: table });
    observe('resumed', positions(resumed));
  },

  async 'seek-replay'() {
    const topic = `${prefix}topic`;
    await create(topic);
    await produceNumbered(topic, 0, 10);
    const all = await readGroup(`${prefix}group`, topic, atLeast(10));
    // A stream started at a chosen offset is this client's seek.
    const replay = await readGroup(`${prefix}group`, topic, atLeast(7), { mode: 'manual', offsets: [{ topic, partition: 0, offset: 3n }] });
    const offsets = [...all, ...replay].map((m) => Number(m.offset));
    assert.deepEqual(offsets, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9]);
    observe('offsets', offsets);
  },

  async metadata() {
    await withAdmin(async (admin) => {
      const cluster = await admin.metadata({ topics: [] });
      assert.equal(cluster.brokers.size, 1, 'one broker');
      const [[nodeId, broker]] = [...cluster.brokers];
      assert.equal(`${broker.host}:${broker.port}`, bootstrap, 'the advertised address');
      assert.equal(cluster.controllerId, nodeId, 'the controller');
      assert.ok(cluster.id, 'a cluster id');
      const topic = `${prefix}topic`;
      await createTopic(admin, topic, 3);
      const described = await eventually('the topic', async () => (await admin.metadata({ topics: [topic] })).topics.get(topic));
      const partitions = described.partitions.map((p, id) => ({ id, leader: p.leader, replicas: p.replicas, isr: p.isr }));
      assert.deepEqual(partitions, [0, 1, 2].map((id) => ({ id, leader: nodeId, replicas: [nodeId], isr: [nodeId] })));
      observe('partitions', partitions.length);
      observe('create-again', await failsWith('creating it again', () => createTopic(admin, topic, 1)));
    });
  },

  async 'topic-admin'() {
    const topic = `${prefix}topic`;
    const names = ['cleanup.policy', 'max.message.bytes', 'retention.ms', 'segment.bytes'];
    await withAdmin(async (admin) => {
      await createTopic(admin, topic, 3, [{ name: 'cleanup.policy', value: 'compact' }]);
      const created = await topicConfigs(admin, topic, names);
      assert.deepEqual([created['cleanup.policy'], created['retention.ms']], ['compact', '604800000']);
      observe('configs-created', created);
      await admin.incrementalAlterConfigs({ resources: [{ resourceType: TOPIC, resourceName: topic, configs: [
        { name: 'retention.ms', configOperation: 0, value: '3600000' }, { name: 'cleanup.policy', configOperation: 1, value: null }] }] });
      // The broker applies an altered config once the controller's record reaches it: read until it shows.
      await eventually('the altered configs', async () => {
        const have = await topicConfigs(admin, topic, ['cleanup.policy', 'retention.ms']);
        return have['cleanup.policy'] === 'delete' && have['retention.ms'] === '3600000';
      });
      observe('configs-altered', await topicConfigs(admin, topic, names));
      await admin.createPartitions({ topics: [{ name: topic, count: 5, assignments: null }] });
      await eventually('5 partitions', async () => (await admin.metadata({ topics: [topic], forceUpdate: true })).topics.get(topic)?.partitions.length === 5);
      observe('shrink-partitions', await failsWith('shrinking to 2', () => admin.createPartitions({ topics: [{ name: topic, count: 2, assignments: null }] })));
      await admin.deleteTopics({ topics: [topic] });
      await eventually('the deleted topic to leave listTopics', async () => !(await admin.listTopics()).includes(topic));
    });
  },

  async 'produce-consume'() {
    const topic = `${prefix}topic`;
    await create(topic);
    const sent = [
      { key: Buffer.from('k1'), value: Buffer.from('v1'), headers: new Map([[Buffer.from('h1'), Buffer.from('x')], [Buffer.from('h2'), Buffer.from('y')]]) },
      { value: Buffer.from('no key') },
      { key: Buffer.from('empty'), value: Buffer.alloc(0) },
      { key: Buffer.from('null'), value: null },
      // Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
      { key: Buffer.from('big'), value: Buffer.alloc(1_000_000, 'x') },
    ];
    const offsets = await produce(sent.map((m) => ({ topic, ...m })));
    // zstd needs node's zlib zstd (Node 22+); this client has no other zstd (FINDINGS.md).
    for (const codec of ['gzip', 'snappy', 'lz4']) {
      const message = { key: Buffer.from(codec), value: Buffer.from(`compressed with ${codec}`) };
      offsets.push(...(await produce([{ topic, ...message }], { compression: codec })));
      sent.push(message);
    }
    observe('offsets', offsets);
    const received = await readGroup(`${prefix}group`, topic, atLeast(sent.length));
    const show = (b) => (b === null || b === undefined ? null : b.length > 32 ? `<${b.length} bytes>` : b.toString());
    const headers = (h) => [...(h ?? new Map())].map(([k, v]) => `${k}=${v}`);
    assert.deepEqual(
      received.map((m, i) => ({ offset: Number(m.offset), key: show(m.key), value: show(m.value), headers: headers(m.headers) })),
      sent.map((m, i) => ({ offset: i, key: show(m.key), value: show(m.value), headers: headers(m.headers) })),
    );
  },

  async 'commit-resume'() {
    const topic = `${prefix}topic`;
    const group = `${prefix}group`;
    await create(topic);
    await produceNumbered(topic, 0, 10);
    await readGroup(group, topic, reaches(4)); // commits each kept message: 5 is next
    await withAdmin(async (admin) => assert.equal(await committed(admin, group, topic), 5));
    const resumed = await readGroup(group, topic, reaches(9));
    assert.deepEqual(values(resumed), numbered(5, 5));
    observe('resumed', positions(resumed));
  },

  async 'two-groups'() {
    const topic = `${prefix}topic`;
    await create(topic, 2);
    const producer = new Producer({ ...base, idempotent: false, acks: -1 });
    await producer.send({ messages: Array.from({ length: 10 }, (_, i) => ({ topic, key: Buffer.from(`key-${i}`), value: Buffer.from(`m${i}`) })) });
    await producer.close();
    const placement = async (group) => (await readGroup(group, topic, atLeast(10))).map((m) => `${m.partition}:${m.offset}:${m.value}`).sort();
    const first = await placement(`${prefix}first`);
    assert.deepEqual(await placement(`${prefix}second`), first);
    observe('placement', first);
  },

  async 'offsets-for-times'() {
    const topic = `${prefix}topic`;
    await create(topic);
    await produce(Array.from({ length: 5 }, (_, i) => ({ topic, value: Buffer.from(`t${i}`), timestamp: BASE_TIME + BigInt(i * 1000) })));
    const answers = await withAdmin(async (admin) => {
      const at = async (timestamp) => {
        const [listed] = await admin.listOffsets({ topics: [{ name: topic, partitions: [{ partitionIndex: 0, timestamp }] }] });
        return Number(listed.partitions[0].offset);
      };
      return { before: await at(BASE_TIME - 1000n), exact: await at(BASE_TIME + 2000n), between: await at(BASE_TIME + 2500n),
        after: await at(BASE_TIME + 60_000n), earliest: await at(-2n), latest: await at(-1n) };
    });
    assert.deepEqual(answers, { before: 0, exact: 2, between: 3, after: -1, earliest: 0, latest: 5 });
    observe('offsets', answers);
  },

  async 'idempotent-producer'() {
    const topic = `${prefix}topic`;
    await create(topic);
    const offsets = await produce(numbered(0, 9).map((v) => ({ topic, value: Buffer.from(v) })), { idempotent: true });
    assert.deepEqual(offsets.map(Number), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    observe('offsets', offsets);
    assert.deepEqual(values(await readGroup(`${prefix}group`, topic, atLeast(9))), numbered(0, 9));
  },

  async transactions() {
    const topic = `${prefix}topic`;
    await create(topic);
    const producer = new Producer({ ...base, idempotent: true, acks: -1, transactionalId: `${prefix}txn` });
    // Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
    for (const [end, batch] of [['commit', ['c0', 'c1', 'c2']], ['abort', ['a0', 'a1']], ['commit', ['c3']]]) {
      const transaction = await producer.beginTransaction();
      await transaction.send({ messages: batch.map((v) => ({ topic, partition: 0, value: Buffer.from(v) })) });
      await (end === 'commit' ? transaction.commit() : transaction.abort());
    }
    await producer.close();
    const committedRead = await readGroup(`${prefix}committed`, topic, atLeast(4), { isolationLevel: 1 });
    assert.deepEqual(values(committedRead), ['c0', 'c1', 'c2', 'c3']);
    const everything = await readGroup(`${prefix}uncommitted`, topic, atLeast(6), { isolationLevel: 0 });
    assert.deepEqual(values(everything), ['c0', 'c1', 'c2', 'a0', 'a1', 'c3']);
    observe('read-committed', positions(committedRead));
    observe('read-uncommitted', positions(everything));
  },

  /**
   * What a typical application does, for the runner to read the API versions the client negotiates through its
   * recording proxy (runner/versions.ts): an idempotent producer, a group consumer that commits, a transaction, a
   * read_committed reader and the admin describing the group.
   */
  async 'newest-versions'() {
    const topic = `${prefix}topic`;
    const output = `${prefix}output`;
    await create(topic);
    await create(output);
    await produce(numbered(0, 3).map((v, i) => ({ topic, key: Buffer.from(`k${i}`), value: Buffer.from(v) })), { idempotent: true });
    const read = await readGroup(`${prefix}group`, topic, atLeast(3));
    assert.deepEqual(values(read), numbered(0, 3));
    const producer = new Producer({ ...base, idempotent: true, acks: -1, transactionalId: `${prefix}txn` });
    try {
      const transaction = await producer.beginTransaction();
      await transaction.send({ messages: read.map((m) => ({ topic: output, partition: 0, value: Buffer.from(m.value.toString().toUpperCase()) })) });
      await transaction.commit();
    } finally {
      await producer.close();
    }
    const transformed = await readGroup(`${prefix}checker`, output, atLeast(3), { isolationLevel: 1 });
    assert.deepEqual(values(transformed), ['M0', 'M1', 'M2']);
    const [described] = await withAdmin((admin) => admin.describeGroups({ groups: [`${prefix}group`] }).then((groups) => [...groups.values()]));
    observe('group-state', described?.state);
    observe('output', positions(transformed));
  },

  async 'broker-restart-before'() {
    const topic = `${prefix}topic`;
    await create(topic);
    await produceNumbered(topic, 0, 5);
    await readGroup(`${prefix}group`, topic, atLeast(5));
  },

  async 'broker-restart-after'() {
    const topic = `${prefix}topic`;
    const group = `${prefix}group`;
    // The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
    await withAdmin((admin) => eventually('the committed offset', async () => (await committed(admin, group, topic)) === 5));
    assert.deepEqual((await produceNumbered(topic, 5, 5)).map(Number), [5, 6, 7, 8, 9]);
    const resumed = await readGroup(group, topic, reaches(9));
    assert.deepEqual(values(resumed), numbered(5, 5));
    assert.deepEqual(values(await readGroup(`${prefix}all`, topic, atLeast(10))), numbered(0, 10));
    observe('resumed', positions(resumed));
  },

  async 'error-unknown-topic'() {
    const topic = `${prefix}missing`;
    const producer = new Producer({ ...base, idempotent: false, autocreateTopics: false, retries: 0 });
    observe('produce', await failsWith('producing to it', () => producer.send({ messages: [{ topic, value: Buffer.from('x') }] })));
    await producer.close();
    await withAdmin(async (admin) => {
      assert.ok(!(await admin.listTopics()).includes(topic), 'the topic was not created');
      observe('describe-configs', await failsWith('describing its configs', () => topicConfigs(admin, topic, ['retention.ms'])));
      observe('delete', await failsWith('deleting it', () => admin.deleteTopics({ topics: [topic] })));
      observe('add-partitions', await failsWith('adding partitions', () => admin.createPartitions({ topics: [{ name: topic, count: 2, assignments: null }] })));
    });
  },

  async 'error-message-too-large'() {
    const topic = `${prefix}topic`;
    const other = `${prefix}default`;
    await create(topic, 1, [{ name: 'max.message.bytes', value: '2000' }]);
    await create(other);
    const producer = new Producer({ ...base, idempotent: false, acks: -1, retries: 0 });
    observe('over-topic-limit', await failsWith('a 3000-byte record', () => producer.send({ messages: [{ topic, partition: 0, value: Buffer.alloc(3000) }] })));
    observe('over-broker-default', await failsWith('a 1.1 MB record', () => producer.send({ messages: [{ topic: other, partition: 0, value: Buffer.alloc(1_100_000) }] })));
    const result = await producer.send({ messages: [{ topic, partition: 0, value: Buffer.alloc(1000) }] });
    observe('under-limit-offset', result.offsets?.[0]?.offset);
    await producer.close();
  },

  async 'error-invalid-topic'() {
    await withAdmin(async (admin) => {
      for (const [key, name, partitions] of [['space-and-bang', 'bad name!', 1], ['dot', '.', 1], ['250-chars', 'x'.repeat(250), 1], ['zero-partitions', `${prefix}zero`, 0]]) {
        observe(key, await failsWith(key, () => createTopic(admin, name, partitions)));
      }
    });
  },

  'auth-failure': () => authFailure(Admin, base, observe),

  async 'error-invalid-config'() {
    const topic = `${prefix}topic`;
    await withAdmin(async (admin) => {
      for (const [key, name, value] of [['create-bad-value', 'cleanup.policy', 'bogus'], ['create-bad-number', 'retention.ms', 'abc'], ['create-unknown-name', 'no.such.config', '1']]) {
        observe(key, await failsWith(key, () => createTopic(admin, topic, 1, [{ name, value }])));
      }
      assert.ok(!(await admin.listTopics()).includes(topic), 'a refused topic is not created');
      await createTopic(admin, topic, 1);
      observe('alter-bad-value', await failsWith('retention.ms=abc', () => admin.incrementalAlterConfigs({ resources: [
        { resourceType: TOPIC, resourceName: topic, configs: [{ name: 'retention.ms', configOperation: 0, value: 'abc' }] }] })));
      observe('configs-after', await topicConfigs(admin, topic, ['retention.ms']));
    });
  },

  // The KIP-848 consumer protocol (groupProtocol: 'consumer'). The admin has no ConsumerGroupDescribe, and
  // DescribeGroups does not describe a consumer group: the members' own assignments tell each step.
  async 'consumer-group-rebalance'() {
    const topic = `${prefix}topic`;
    const group = `${prefix}group`;
    await create(topic, 6);
    const steps = {};
    const settle = async (step, live, sizes, total) => {
      await eventually(`${step}: sizes ${json(sizes)}`, async () => {
        const have = live.map((m) => m.size()).sort();
        return json(have) === json(sizes) && (total !== live.length || new Set(live.flatMap((m) => m.held())).size === 6);
      });
      steps[step] = { sizes };
    };
    await rebalanceSteps(settle, () => startMember(group, topic, CONSUMER_MEMBER), [group, topic, 'consumer']);
    observe('steps', steps);
  },

  async 'consumer-commit-resume'() {
    const topic = `${prefix}topic`;
    const group = `${prefix}group`;
    await create(topic);
    await produceNumbered(topic, 0, 10);
    // Each kept message is committed (OffsetCommit with the member's epoch): reading up to 4 commits 5.
    await readGroup(group, topic, reaches(4), CONSUMER_MEMBER);
    await withAdmin(async (admin) => assert.equal(await committed(admin, group, topic), 5));
    const resumed = await readGroup(group, topic, reaches(9), CONSUMER_MEMBER);
    assert.deepEqual(values(resumed), numbered(5, 5));
    observe('resumed', positions(resumed));
    await withAdmin(async (admin) => observe('committed-after', await committed(admin, group, topic)));
  },
};

if (scenarios[scenario] === undefined || bootstrap === undefined || prefix === undefined || (scenario === 'member') !== (process.argv.length >= 6)) {
  console.error(`usage: platformatic.mjs <${Object.keys(scenarios).join('|')}> <bootstrap> <name-prefix>`);
  process.exit(2);
}
try {
  await scenarios[scenario]();
  process.exit(0);
} catch (error) {
  // Name the innermost causes: the client wraps Kafka's errors in aggregates.
  const describe = (e, depth = 0) => [e?.message ?? String(e), ...[...(e?.errors ?? []), ...(e?.cause ? [e.cause] : [])]
    .flatMap((inner) => (depth < 3 ? describe(inner, depth + 1) : []))];
  console.error(describe(error).slice(0, 6).join(' <- '));
  process.exit(1);
}
