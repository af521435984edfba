// newest-versions for kafkajs: what a typical application does, for the runner to read the API versions kafkajs
// negotiates through its recording proxy (runner/versions.ts).
import assert from 'node:assert/strict';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { newestVersions as throughProxy, withBootstrap } from '../../runner/versions.js';
import { newestVersionsOf } from '../newest-versions.js';
import { consumeUntil, createTopic, kafkaFor, numbered, positions, withAdmin } from './common.js';

/**
 * An idempotent producer, a group consumer that commits, a transaction writing the records upper-cased and
 * committing a group's offset with them, a read_committed reader, and the admin describing the group.
 */
async function work(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const output = context.name('output');
  const group = context.name('group');
  await createTopic(context, topic, 1);
  await createTopic(context, output, 1);
  const producer = kafkaFor(context).producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, messages: numbered(3).map((m, i) => ({ ...m, key: `k${i}` })) });
  } finally {
    await producer.disconnect();
  }
  const read = await consumeUntil(context, { groupId: context.name('reader') }, topic, (r) => r.length >= 3);
  assert.deepEqual(read.map((r) => r.value), ['m0', 'm1', 'm2']);
  const transactional = kafkaFor(context).producer({ transactionalId: context.name('txn'), idempotent: true, maxInFlightRequests: 1 });
  await transactional.connect();
  try {
    const transaction = await transactional.transaction();
    await transaction.send({ topic: output, messages: read.map((r) => ({ value: (r.value ?? '').toUpperCase() })) });
    await transaction.sendOffsets({ consumerGroupId: group, topics: [{ topic, partitions: [{ partition: 0, offset: '3' }] }] });
    await transaction.commit();
  } finally {
    await transactional.disconnect();
  }
  const transformed = await consumeUntil(context, { groupId: context.name('checker'), readUncommitted: false }, output, (r) => r.length >= 3);
  assert.deepEqual(transformed.map((r) => r.value), ['M0', 'M1', 'M2']);
  await withAdmin(context, async (admin) => {
    const [fetched] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    assert.equal(fetched?.partitions[0]?.offset, '3', 'the offset committed in the transaction');
    const { groups } = await admin.describeGroups([group]);
    context.observe('group-state', groups[0]?.state);
  });
  context.observe('output', positions(transformed));
  return pass;
}

export function newestVersions(context: ScenarioContext): Promise<Outcome> {
  return throughProxy(context, newestVersionsOf('kafkajs'), (bootstrap) => work(withBootstrap(context, bootstrap)));
}
