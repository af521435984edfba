// /metrics against a kafkajs workload: every broker metric checked against what the workload did and what the
// clients read back (offsets and lag as kafka-consumer-groups computes them: high watermark - committed offset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Kafka, logLevel } from 'kafkajs';
import { startTestBroker, roundTrip } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { apiVersionsApi } from '../../src/protocol/generated/api-versions.js';
import { parseExposition, seriesOf, valueOf, type ParsedSample } from './prometheus-text.js';

async function scrape(address: { host: string; port: number }): Promise<{ samples: ParsedSample[]; contentType: string | null }> {
  const response = await fetch(`http://${address.host}:${address.port}/metrics`);
  assert.equal(response.status, 200);
  return { samples: parseExposition(await response.text()), contentType: response.headers.get('content-type') };
}

test('messages, bytes, requests, errors, partitions, logs and group lag as the workload made them', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const kafka = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], clientId: 'metrics-test', logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: 'metrics-group' });
  try {
    await admin.connect();
    assert.equal(await admin.createTopics({ topics: [{ topic: 'metered', numPartitions: 2 }] }), true);
    // The same again: answered TOPIC_ALREADY_EXISTS, which kafkajs reports as false.
    assert.equal(await admin.createTopics({ topics: [{ topic: 'metered', numPartitions: 2 }] }), false);
    await producer.connect();
    for (let i = 0; i < 10; i++) await producer.send({ topic: 'metered', messages: [{ partition: i % 2, value: `value-${i}` }, { partition: i % 2, value: `second-${i}` }] });
    await consumer.connect();
    await consumer.subscribe({ topic: 'metered', fromBeginning: true });
    let consumed = 0;
    await new Promise<void>((resolve) => void consumer.run({ eachMessage: async () => { if (++consumed === 20) resolve(); } }));
    await consumer.stop();
    await consumer.disconnect();
    // After the group committed, more records: the lag.
    await producer.send({ topic: 'metered', messages: [{ partition: 0, value: 'a' }, { partition: 0, value: 'b' }, { partition: 1, value: 'c' }] });

    const { samples, contentType } = await scrape(broker.httpAddresses[0]!);
    assert.equal(contentType, 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_messagesin_total', { topic: 'metered' }), 23);
    // The group coordinator's writes to __consumer_offsets are counted as Kafka counts them (its appends go through
    // ReplicaManager there): every record in the topic's logs, and every byte of them (nothing was compacted yet).
    const offsetsLogs = samples.filter((s) => s.name === 'kafka_log_log_logendoffset' && s.labels['topic'] === '__consumer_offsets');
    const offsetsRecords = offsetsLogs.reduce((n, s) => n + s.value, 0);
    assert.ok(offsetsRecords > 0);
    assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_messagesin_total', { topic: '__consumer_offsets' }), offsetsRecords);
    const offsetsBytes = samples.filter((s) => s.name === 'kafka_log_log_size' && s.labels['topic'] === '__consumer_offsets').reduce((n, s) => n + s.value, 0);
    assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_bytesin_total', { topic: '__consumer_offsets' }), offsetsBytes);
    // The all-topics series (no topic label) is their sum.
    assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_messagesin_total'), 23 + offsetsRecords);
    assert.ok(valueOf(samples, 'kafka_server_brokertopicmetrics_bytesin_total', { topic: 'metered' })! > 0);
    assert.ok(valueOf(samples, 'kafka_server_brokertopicmetrics_bytesout_total', { topic: 'metered' })! > 0);
    // 11 sends, one Produce each; every partition answered NONE.
    const produce = samples.filter((s) => s.name === 'kafka_network_requestmetrics_requests_total' && s.labels['request'] === 'Produce');
    assert.equal(produce.reduce((n, s) => n + s.value, 0), 11);
    assert.equal(valueOf(samples, 'kafka_network_requestmetrics_errors_total', { request: 'Produce', error: 'NONE' }), 12);
    assert.equal(valueOf(samples, 'kafka_network_requestmetrics_errors_total', { request: 'CreateTopics', error: 'TOPIC_ALREADY_EXISTS' }), 1);
    assert.equal(valueOf(samples, 'kafka_network_requestmetrics_errors_total', { request: 'CreateTopics', error: 'NONE' }), 1);
    const version = produce[0]!.labels['version']!;
    assert.equal(valueOf(samples, 'kafka_network_requestmetrics_totaltimems_count', { request: 'Produce', version }), 11);
    assert.equal(valueOf(samples, 'kafka_network_requestmetrics_totaltimems_bucket', { request: 'Produce', version, le: '+Inf' }), 11);

    assert.equal(valueOf(samples, 'kafka_topic_partitions', { topic: 'metered' }), 2);
    const offsets = await admin.fetchTopicOffsets('metered');
    const committed = (await admin.fetchOffsets({ groupId: 'metrics-group', topics: ['metered'] }))[0]!.partitions;
    for (const { partition, high, low } of offsets) {
      const labels = { topic: 'metered', partition: String(partition) };
      assert.equal(valueOf(samples, 'kafka_topic_partition_current_offset', labels), Number(high));
      assert.equal(valueOf(samples, 'kafka_topic_partition_oldest_offset', labels), Number(low));
      assert.equal(valueOf(samples, 'kafka_log_log_logendoffset', labels), Number(high));
      assert.ok(valueOf(samples, 'kafka_log_log_size', labels)! > 0);
      const offset = Number(committed.find((p) => p.partition === partition)!.offset);
      const groupLabels = { consumergroup: 'metrics-group', ...labels };
      assert.equal(valueOf(samples, 'kafka_consumergroup_current_offset', groupLabels), offset);
      assert.equal(valueOf(samples, 'kafka_consumergroup_lag', groupLabels), Number(high) - offset);
    }
    assert.deepEqual(offsets.map((o) => Number(o.high)).sort(), [11, 12]);
    assert.equal(valueOf(samples, 'kafka_consumergroup_lag_sum', { consumergroup: 'metrics-group', topic: 'metered' }), 3);
    assert.equal(valueOf(samples, 'kafka_consumergroup_members', { consumergroup: 'metrics-group' }), 0);
    assert.equal(valueOf(samples, 'kafka_coordinator_group_groupmetadatamanager_numgroups'), 1);
    assert.equal(valueOf(samples, 'kafka_coordinator_group_groupmetadatamanager_numgroupsempty'), 1);
    assert.equal(valueOf(samples, 'kafka_coordinator_group_groupmetadatamanager_numoffsets'), 2);
    assert.equal(valueOf(samples, 'kafka_server_group_coordinator_metrics_group_count', { protocol: 'classic' }), 1);
    // 2 partitions of metered and __consumer_offsets' 50.
    assert.equal(valueOf(samples, 'kafka_server_replicamanager_partitioncount'), 52);
    assert.equal(valueOf(samples, 'kafka_server_replicamanager_leadercount'), 52);
    // One broker: every partition's one replica is its leader and in sync, at min.insync.replicas (1).
    assert.equal(valueOf(samples, 'kafka_server_replicamanager_underreplicatedpartitions'), 0);
    assert.equal(valueOf(samples, 'kafka_server_replicamanager_underminisrpartitioncount'), 0);
    assert.equal(valueOf(samples, 'kafka_server_replicamanager_atminisrpartitioncount'), 52);
    assert.equal(valueOf(samples, 'kafka_controller_kafkacontroller_offlinepartitionscount'), 0);
    assert.equal(valueOf(samples, 'kafka_controller_kafkacontroller_activecontrollercount'), 1);
    assert.equal(valueOf(samples, 'kafka_topic_partition_in_sync_replica', { topic: 'metered', partition: '0' }), 1);
    assert.equal(valueOf(samples, 'kafka_topic_partition_leader', { topic: 'metered', partition: '0' }), 1);
    // prom-client's process and Node.js metrics: CPU, memory, event-loop lag.
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.ok(samples.some((s) => s.name === name), name);
    }

    // A deleted topic's counts and gauges go.
    await admin.deleteTopics({ topics: ['metered'] });
    const after = (await scrape(broker.httpAddresses[0]!)).samples;
    assert.equal(valueOf(after, 'kafka_server_brokertopicmetrics_messagesin_total', { topic: 'metered' }), undefined);
    assert.equal(valueOf(after, 'kafka_topic_partitions', { topic: 'metered' }), undefined);
  } finally {
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
  }
});

test('open connections per listener', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const clients = [await RawClient.connect(broker.port), await RawClient.connect(broker.port)];
  try {
    // Answered: both connections are admitted and counted.
    for (const client of clients) await roundTrip(client, apiVersionsApi, 3, { clientSoftwareName: 'raw', clientSoftwareVersion: '1' });
    const { samples } = await scrape(broker.httpAddresses[0]!);
    assert.deepEqual(seriesOf(samples, 'kafka_server_socket_server_metrics_connection_count'), ['{"listener":"PLAINTEXT"} 2']);
    assert.equal(valueOf(samples, 'kafka_network_requestmetrics_requests_total', { request: 'ApiVersions', version: '3' }), 2);
  } finally {
    for (const client of clients) client.close();
    await broker.close();
  }
});

test('a transaction\'s markers and the coordinators\' writes to __transaction_state and __consumer_offsets are counted in', async () => {
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const kafka = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], clientId: 'metrics-txn', logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ transactionalId: 'metrics-txn', idempotent: true, maxInFlightRequests: 1 });
  try {
    await producer.connect();
    const txn = await producer.transaction();
    await txn.send({ topic: 'txn-metered', messages: [{ partition: 0, value: 'a' }, { partition: 0, value: 'b' }] });
    await txn.sendOffsets({ consumerGroupId: 'metrics-txn-group', topics: [{ topic: 'txn-metered', partitions: [{ partition: 0, offset: '2' }] }] });
    await txn.commit();
    const { samples } = await scrape(broker.httpAddresses[0]!);
    const sum = (name: string, topic: string) => samples.filter((s) => s.name === name && s.labels['topic'] === topic).reduce((n, s) => n + s.value, 0);
    // Two records and the commit marker.
    assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_messagesin_total', { topic: 'txn-metered' }), 3);
    assert.equal(sum('kafka_log_log_logendoffset', 'txn-metered'), 3);
    assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_bytesin_total', { topic: 'txn-metered' }), sum('kafka_log_log_size', 'txn-metered'));
    for (const topic of ['__transaction_state', '__consumer_offsets']) {
      // Every record each coordinator wrote (the offset commit and its marker in __consumer_offsets), every byte.
      assert.ok(sum('kafka_log_log_logendoffset', topic) > 0, topic);
      assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_messagesin_total', { topic }), sum('kafka_log_log_logendoffset', topic), topic);
      assert.equal(valueOf(samples, 'kafka_server_brokertopicmetrics_bytesin_total', { topic }), sum('kafka_log_log_size', topic), topic);
    }
  } finally {
    await producer.disconnect();
    await broker.close();
  }
});
