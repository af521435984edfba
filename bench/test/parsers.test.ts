// The tool outputs the benchmark reads, as the tools printed them (captured from Kafka 4.3.1's tools and ours).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConsumerPerf, parseLatency, parseProducerPerf, parseRdkafkaProducer } from '../compare/clients.js';

test('kafka-producer-perf-test: the last summary line, not the progress lines', () => {
  const output = [
    '85571 records sent, 17114.2 records/sec (16.71 MB/sec), 314.4 ms avg latency, 864.0 ms max latency.',
    '200000 records sent, 22542.831380 records/sec (22.01 MB/sec), 156.39 ms avg latency, 864.00 ms max latency, 70 ms 50th, 504 ms 95th, 577 ms 99th, 594 ms 99.9th.',
  ].join('\n');
  const result = parseProducerPerf(output, 1024);
  assert.equal(result.recordsPerSecond, 22542.83138);
  assert.equal(result.mbPerSecond, (22542.83138 * 1024) / 1e6);
});

test('kafka-producer-perf-test: only progress lines (the tool died) is an error', () => {
  assert.throws(() => parseProducerPerf('85571 records sent, 17114.2 records/sec (16.71 MB/sec), 314.4 ms avg latency, 864.0 ms max latency.\n', 1024), /no summary line/);
  assert.throws(() => parseProducerPerf('', 100), /no summary line/);
});

test('kafka-consumer-perf-test: fetch.MB.sec (MiB) as MB/s, with the deprecation warning before the header', () => {
  const output = [
    'Warning: --messages is deprecated. Use --num-records instead.',
    'start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec',
    '2026-12-02 12:02:43:708, 2026-12-02 12:02:47:369, 195.3125, 53.3495, 200000, 54629.8825, 1567, 2094, 93.2724, 95510.9838',
  ].join('\n');
  const result = parseConsumerPerf(output);
  assert.equal(result.records, 200000);
  assert.equal(result.mbPerSecond, (93.2724 * 1024 * 1024) / 1e6);
  assert.equal(result.megabytes, 204.8);
  assert.throws(() => parseConsumerPerf('start.time, end.time\n'), /no result line/);
});

test('end-to-end latency line', () => {
  const result = parseLatency('count=8000 lost=0 p50_ms=11.961 p99_ms=44.568 p999_ms=62.070 max_ms=67.631\n');
  assert.deepEqual(result, { count: 8000, lost: 0, p50Ms: 11.961, p99Ms: 44.568, p999Ms: 62.07 });
  assert.throws(() => parseLatency('only 10 of 8000 records arrived'), /no count/);
});

test('librdkafka producer JSON line; undelivered records are an error', () => {
  const result = parseRdkafkaProducer('{"records": 100000, "bytes": 102400000, "seconds": 2.0, "errors": 0}\n');
  assert.equal(result.recordsPerSecond, 50000);
  assert.equal(result.mbPerSecond, 51.2);
  assert.throws(() => parseRdkafkaProducer('{"records": 10, "bytes": 1000, "seconds": 1, "errors": 3}'), /3 records not delivered/);
});
