// The load generator's output as the benchmark reads it (lines captured from bench/loadgen against Kafka 4.3.1),
// and the broker-bound workload's wiring: its cases, labels, figures and targets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brokerBoundPlan, caseFigures, loadgenLabel } from '../compare/broker-bound.js';
import { parseLoadgen, produceArgs } from '../compare/loadgen.js';
import { targetFor, WORKLOAD_TITLES } from '../compare/report.js';
import { WORKLOADS } from '../compare/suite.js';

const PRODUCE_LINE = '{"mode":"produce","records":200000,"bytes":204800000,"seconds":1.544303108,"errors":0,"p50Ms":244.375,"p99Ms":330.219,"clientCpuSeconds":0.41}';
const FETCH_LINE = '{"mode":"fetch","records":200000,"bytes":204800000,"seconds":0.331572672,"errors":0,"clientCpuSeconds":0.2048}';

test('loadgen produce: rates from records, bytes and seconds; the acknowledgement percentiles', () => {
  const result = parseLoadgen(`${PRODUCE_LINE}\n`);
  assert.deepEqual(result, {
    mode: 'produce',
    records: 200000,
    bytes: 204800000,
    seconds: 1.544303108,
    recordsPerSecond: 200000 / 1.544303108,
    mbPerSecond: 204.8 / 1.544303108,
    p50Ms: 244.375,
    p99Ms: 330.219,
    clientCpuSeconds: 0.41,
  });
});

test('loadgen fetch: no percentiles', () => {
  const result = parseLoadgen(FETCH_LINE);
  assert.equal(result.mode, 'fetch');
  assert.equal(result.mbPerSecond, 204.8 / 0.331572672);
  assert.equal(result.p50Ms, undefined);
  assert.equal(result.p99Ms, undefined);
});

test('loadgen: unacknowledged records, a missing or malformed line are errors', () => {
  assert.throws(
    () => parseLoadgen('{"mode":"produce","records":10,"bytes":10240,"seconds":1,"errors":3,"p50Ms":1,"p99Ms":2,"firstError":"NOT_LEADER_OR_FOLLOWER","clientCpuSeconds":0.1}'),
    /3 of 10 records not acknowledged \(NOT_LEADER_OR_FOLLOWER\)/,
  );
  assert.throws(() => parseLoadgen(''), /no result line/);
  assert.throws(() => parseLoadgen('loadgen: cannot reach [127.0.0.1:1]'), /no result line/);
  assert.throws(() => parseLoadgen('{"mode":"produce","records":10,"bytes":10240,"seconds":0,"errors":0,"clientCpuSeconds":0.1}'), /malformed/);
  assert.throws(() => parseLoadgen('{"mode":"consume","records":10,"bytes":10240,"seconds":1,"errors":0,"clientCpuSeconds":0.1}'), /malformed/);
  assert.throws(() => parseLoadgen('{"mode":"fetch","records":10,"bytes":10240,"seconds":1,"errors":0}'), /malformed/);
});

test('produce arguments carry every setting of the case', () => {
  const args = produceArgs('127.0.0.1:9092', 't', 5000, { recordSize: 100, acks: 'all', compression: 'lz4', partitions: 8, producers: 16, lingerMs: 5, batchBytes: 65536 });
  assert.deepEqual(args, [
    'produce', '-brokers', '127.0.0.1:9092', '-topic', 't', '-records', '5000', '-size', '100',
    '-acks', 'all', '-compression', 'lz4', '-producers', '16', '-linger-ms', '5', '-batch-bytes', '65536',
  ]);
});

test('broker-bound plans: distinct labels, the Java tools\' 16 cases and the sweeps in the full plan', () => {
  for (const quick of [true, false]) {
    const labels = brokerBoundPlan({ quick }).produce.map(loadgenLabel);
    assert.equal(new Set(labels).size, labels.length);
    // The first case is the one whose topic is fetched back.
    assert.equal(labels[0], 'produce 1 KiB acks=1 none 8p ×1');
  }
  const full = brokerBoundPlan({ quick: false }).produce.map(loadgenLabel);
  assert.ok(full.includes('produce 100 B acks=all lz4 1p ×1'));
  assert.ok(full.includes('produce 100 KiB acks=1 none 8p ×1'));
  assert.ok(full.includes('produce 1 KiB acks=1 none 1,000p ×1'));
  assert.ok(full.includes('produce 1 KiB acks=1 none 8p ×1,000'));
});

test('a case\'s figures: throughput, broker CPU-s per GB, p99 for produce only; targets ≥ 1× and ≤ 1×', () => {
  const produced = caseFigures('produce 1 KiB acks=1 none 8p ×1', parseLoadgen(PRODUCE_LINE), 2.048);
  assert.deepEqual(produced.map((f) => [f.case, f.unit, f.better, f.value]), [
    ['produce 1 KiB acks=1 none 8p ×1', 'MB/s', 'higher', 204.8 / 1.544303108],
    ['produce 1 KiB acks=1 none 8p ×1, broker CPU', 'CPU-s/GB', 'lower', 10],
    ['produce 1 KiB acks=1 none 8p ×1, p99', 'ms', 'lower', 330.219],
    ['produce 1 KiB acks=1 none 8p ×1, client CPU', 'CPU-s/GB', 'lower', 0.41 / 0.2048],
  ]);
  const fetched = caseFigures('fetch 200 MB, 1 KiB records, 8p', parseLoadgen(FETCH_LINE), 1.024);
  assert.deepEqual(fetched.map((f) => f.case), ['fetch 200 MB, 1 KiB records, 8p', 'fetch 200 MB, 1 KiB records, 8p, broker CPU', 'fetch 200 MB, 1 KiB records, 8p, client CPU']);
  assert.equal(fetched[2]!.value, 1);
  assert.ok(produced.every((f) => f.workload === 'broker-bound'));
  assert.equal(targetFor('broker-bound', produced[0]!.case), 1);
  assert.equal(targetFor('broker-bound', produced[1]!.case), 1);
  assert.equal(targetFor('broker-bound', produced[2]!.case), undefined);
  assert.equal(targetFor('broker-bound', produced[3]!.case), undefined);
  assert.ok((WORKLOADS as readonly string[]).includes('broker-bound'));
  assert.match(WORKLOAD_TITLES['broker-bound'], /loadgen/);
});
