// Kafka 4.3.1's quota arithmetic at given times: Rate over sampled windows and its throttle time, the token bucket of
// controller mutations, and which entity's quota a (user, client id) gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClientQuotaManager } from '../../../src/broker/quota/client-quota-manager.js';
import { ControllerMutationQuotaManager } from '../../../src/broker/quota/controller-mutation-quota.js';
import { QuotaOverrides, type QuotaEntityKey } from '../../../src/broker/quota/quota-resolution.js';
import { SampledRate } from '../../../src/broker/quota/sampled-rate.js';
import { KafkaError } from '../../../src/protocol/kafka-error.js';

const DEFAULT_WINDOWS = { samples: 11, windowMs: 1000 };

test('Rate: a new client is measured over samples - 1 windows; older samples expire', () => {
  const rate = new SampledRate();
  rate.record(DEFAULT_WINDOWS, 5000, 10_000);
  assert.equal(rate.windowSize(DEFAULT_WINDOWS, 10_000), 10_000);
  assert.equal(rate.measure(DEFAULT_WINDOWS, 10_000), 500);
  // 12.5 s later (past 11 windows since its last event) the sample is reset: nothing left.
  assert.equal(rate.measure(DEFAULT_WINDOWS, 22_500), 0);
  // Spanning more than 10 windows, the span is the elapsed time itself.
  const steady = new SampledRate();
  for (let t = 0; t <= 10_500; t += 500) steady.record(DEFAULT_WINDOWS, 100, t);
  assert.equal(steady.windowSize(DEFAULT_WINDOWS, 10_500), 10_500);
});

test('ClientQuotaManager: records first, then throttles by (rate - bound) / bound × window', () => {
  const manager = new ClientQuotaManager(DEFAULT_WINDOWS);
  manager.update(new QuotaOverrides([[{ clientId: null }, 500]]));
  // 400 bytes a second for 10 s: within 500.
  for (let t = 0; t < 10_000; t += 1000) assert.equal(manager.recordAndGetThrottleTimeMs('ANONYMOUS', 'c', 400, t), 0);
  // Then 2000 bytes at t = 10 s: 6000 over 10 s + the partial window = (6000/10 s - 500) / 500 × 10 s.
  const throttle = manager.recordAndGetThrottleTimeMs('ANONYMOUS', 'c', 2000, 10_000);
  assert.equal(throttle, Math.round(((6000 / 10 - 500) / 500) * 10_000));
  assert.equal(manager.maxValueInQuotaWindow('ANONYMOUS', 'c'), 500 * 10);
  assert.equal(manager.maxValueInQuotaWindow('ANONYMOUS', 'other'), 500 * 10, 'the default client id quota');
});

test('ClientRequestQuotaManager: a throttle is bounded by one window; nothing is measured while no quota exists', () => {
  const manager = new ClientQuotaManager(DEFAULT_WINDOWS, 1000);
  assert.equal(manager.recordAndGetThrottleTimeMs('alice', 'c', 1e9, 0), 0);
  assert.equal(manager.maxValueInQuotaWindow('alice', 'c'), Number.MAX_VALUE);
  manager.update(new QuotaOverrides([[{ user: 'alice' }, 10]]));
  assert.equal(manager.recordAndGetThrottleTimeMs('alice', 'c', 1000, 0), 1000);
  assert.equal(manager.recordAndGetThrottleTimeMs('bob', 'c', 1000, 0), 0, 'no quota applies to bob');
});

test('quota precedence is Kafka\'s: <user, client-id>, <user, default>, <user>, <default, client-id>, <default, default>, <default user>, <client-id>, <default client-id>', () => {
  const all: [QuotaEntityKey, number][] = [
    [{ user: 'u', clientId: 'c' }, 1], [{ user: 'u', clientId: null }, 2], [{ user: 'u' }, 3], [{ user: null, clientId: 'c' }, 4],
    [{ user: null, clientId: null }, 5], [{ user: null }, 6], [{ clientId: 'c' }, 7], [{ clientId: null }, 8],
  ];
  for (let i = 0; i < all.length; i++) {
    const overrides = new QuotaOverrides(all.slice(i));
    assert.equal(overrides.limit(overrides.metricTags('u', 'c')), i + 1, `with quotas from ${JSON.stringify(all[i]![0])} on`);
  }
  // Clients of one user quota share its rate (the client id is not part of the key); client-id quotas are per client.
  const byUser = new QuotaOverrides([[{ user: 'u' }, 3]]);
  assert.deepEqual(byUser.metricTags('u', 'c'), { user: 'u', clientId: '' });
  const byClient = new QuotaOverrides([[{ clientId: null }, 8]]);
  assert.deepEqual(byClient.metricTags('u', 'c'), { user: '', clientId: 'c' });
});

test('controller mutations: a strict quota refuses once the bucket is below zero, a permissive one throttles', () => {
  let now = 100_000;
  const manager = new ControllerMutationQuotaManager({ samples: 2, windowMs: 1000 }, () => now);
  manager.update(new QuotaOverrides([[{ user: null }, 1]]));
  const strict = manager.newQuotaFor('u', 'c', 6, 6);
  strict.record(5); // the full bucket (2) is taken, 3 below zero
  assert.equal(strict.throttleTimeMs(), 0);
  assert.throws(() => strict.record(1), (e: unknown) => e instanceof KafkaError && e.code === 'THROTTLING_QUOTA_EXCEEDED');
  assert.equal(strict.throttleTimeMs(), 3000);
  now += 1000;
  assert.equal(strict.throttleTimeMs(), 2000, 'the time left');
  const permissive = manager.newQuotaFor('u', 'c', 5, 6);
  permissive.record(1); // 2 below zero after a second's refill, then 1 more
  assert.equal(permissive.throttleTimeMs(), 3000);
});
