// The runner's CI mode (pending cells), differential mode and matrix, on hand-made results.
// Run: node --test dist/compat-tests/test/runner.test.js
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyDifferential, differences, loadRecorded, record } from '../runner/differential.js';
import { formatMatrix, tally, type Result } from '../runner/matrix.js';
import { applyPending, loadPending, type PendingEntry } from '../runner/pending.js';

const pending: PendingEntry[] = [{ client: '*', scenario: 'transactions', reason: 'issue 5: transactions not built' }];
const failing: Result = { client: 'kafkajs', scenario: 'transactions', outcome: { status: 'fail', reason: 'INIT_PRODUCER_ID unsupported' } };

test('a listed cell that fails is pending, keeping its failure for the log', () => {
  const applied = applyPending(failing, pending);
  assert.deepEqual(applied.outcome, { status: 'skip', reason: 'pending: issue 5: transactions not built' });
  assert.equal(applied.pendingFailure, 'INIT_PRODUCER_ID unsupported');
});

test('a listed cell that passes stays a pass with a note that its entry can go', () => {
  const applied = applyPending({ ...failing, outcome: { status: 'pass' } }, pending);
  assert.equal(applied.outcome.status, 'pass');
  assert.match(applied.note ?? '', /entry \(issue 5: transactions not built\) can go/);
});

test('an unlisted failure stays a failure', () => {
  const other: Result = { ...failing, scenario: 'metadata' };
  assert.deepEqual(applyPending(other, pending), other);
});

test('loadPending refuses an entry without a reason or naming an unknown client or scenario', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-pending-'));
  try {
    const file = join(dir, 'pending.json');
    const write = (entries: unknown): void => writeFileSync(file, JSON.stringify({ pending: entries }));
    write([{ client: 'kafkajs', scenario: 'metadata', reason: '' }]);
    assert.throws(() => loadPending(file, ['kafkajs']), /needs string client, scenario and a reason/);
    write([{ client: 'nobody', scenario: 'metadata', reason: 'x' }]);
    assert.throws(() => loadPending(file, ['kafkajs']), /unknown client nobody/);
    write([{ client: '*', scenario: 'no-such-scenario', reason: 'x' }]);
    assert.throws(() => loadPending(file, ['kafkajs']), /unknown scenario no-such-scenario/);
    write([{ client: '*', scenario: 'transactions', reason: 'x' }]);
    assert.deepEqual(loadPending(file, ['kafkajs']), [{ client: '*', scenario: 'transactions', reason: 'x' }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the committed pending.json loads', () => {
  const file = join(process.cwd(), 'compat-tests', 'pending.json');
  assert.ok(Array.isArray(loadPending(file, ['kafkajs', 'platformatic', 'java-client', 'java-tools', 'kcat', 'confluent-kafka', 'kafka-python', 'franz-go', 'sarama'])));
});

test('record keeps passing cells with observations; differences name each key that changed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-differential-'));
  try {
    const file = join(dir, 'kafka.json');
    const kafka: Result[] = [
      { client: 'kafkajs', scenario: 'commit-resume', outcome: { status: 'pass' }, observations: { committed: '5', resumed: ['0:5'] } },
      { client: 'kafkajs', scenario: 'metadata', outcome: { status: 'fail', reason: 'x' }, observations: { partitions: 3 } },
    ];
    assert.equal(record(file, '4.3.1', kafka), 1);
    const recorded = loadRecorded(file);
    assert.ok(recorded !== undefined);
    assert.deepEqual(Object.keys(recorded.cells), ['kafkajs/commit-resume']);
    assert.match(readFileSync(file, 'utf8'), /"kafka": "4.3.1"/);

    const gregor: Result = { client: 'kafkajs', scenario: 'commit-resume', outcome: { status: 'pass' }, observations: { committed: '6', extra: 1, resumed: ['0:5'] } };
    assert.deepEqual(differences(recorded, gregor), ['committed: Kafka "5", gregor "6"', 'extra: Kafka nothing, gregor 1']);
    const applied = applyDifferential(gregor, recorded);
    assert.equal(applied.outcome.status, 'fail');
    assert.match(applied.outcome.status === 'fail' ? applied.outcome.reason : '', /^differs from Kafka 4\.3\.1: committed/);
    const same: Result = { ...gregor, observations: { committed: '5', resumed: ['0:5'] } };
    assert.deepEqual(applyDifferential(same, recorded), same);
    // An excused key (a difference tracked elsewhere) is not compared; the others still are.
    const excused: Result = { ...gregor, excused: { committed: 'README: not served yet (#15)' } };
    assert.deepEqual(differences(recorded, excused), ['extra: Kafka nothing, gregor 1']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the matrix puts scenarios down and clients across, numbers its notes and counts', () => {
  const results: Result[] = [
    { client: 'kafkajs', scenario: 'metadata', outcome: { status: 'pass' } },
    { client: 'kcat', scenario: 'metadata', outcome: { status: 'fail', reason: 'broken' } },
    { client: 'kafkajs', scenario: 'transactions', outcome: { status: 'skip', reason: 'pending: issue 5' } },
    { client: 'kcat', scenario: 'transactions', outcome: { status: 'skip', reason: 'kcat cannot' } },
  ];
  const text = formatMatrix(results, 'title');
  assert.match(text, /^scenario \\ client +kafkajs +kcat$/m);
  assert.match(text, /^metadata +pass +FAIL \(1\)$/m);
  assert.match(text, /^transactions +pending \(2\) +skip \(3\)$/m);
  assert.match(text, /^\(1\) kcat \/ metadata: fail: broken$/m);
  assert.match(text, /1 passed, 1 failed, 2 skipped$/);
  assert.deepEqual(tally(results), { passed: 1, failed: 1, skipped: 2 });
});
