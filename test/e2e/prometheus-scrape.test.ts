// A real Prometheus server (Debian's, scripts/install-prometheus.sh) scrapes gregor's /metrics under a kafkajs
// workload: the target is up with no scrape error, messages in equals the messages produced, and each partition's
// lag is what Kafka 4.3.1's kafka-consumer-groups --describe reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { startTestBroker } from '../server/broker-harness.js';
import { freePort } from '../cli/gregor-process.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';

const TOPIC = 'scraped';
const GROUP = 'scraped-group';

interface Target {
  readonly health: string;
  readonly lastError: string;
  readonly lastScrape: string;
}

async function prometheusApi<T>(port: number, path: string): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/${path}`);
  const body = (await response.json()) as { status: string; data: T };
  assert.equal(body.status, 'success', `${path}: ${JSON.stringify(body)}`);
  return body.data;
}

/** The latest value of each series an instant query returns, by the labels named. */
async function query(port: number, promql: string, by: readonly string[]): Promise<Record<string, number>> {
  const data = await prometheusApi<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(port, `query?query=${encodeURIComponent(promql)}`);
  return Object.fromEntries(data.result.map((r) => [by.map((label) => r.metric[label]).join('/'), Number(r.value[1])]));
}

test('Prometheus scrapes gregor with no errors; messages in and group lag agree with the workload and kafka-consumer-groups', { timeout: 300_000 }, async () => {
  installJavaTools();
  const broker = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' });
  const dir = mkdtempSync(join(tmpdir(), 'gregor-prometheus-'));
  const kafka = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], clientId: 'prometheus-e2e', logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: GROUP });
  let prometheus: ReturnType<typeof spawn> | undefined;
  const output: string[] = [];
  try {
    const webPort = await freePort();
    writeFileSync(join(dir, 'prometheus.yml'), [
      'global:',
      '  scrape_interval: 2s',
      '  scrape_timeout: 2s',
      'scrape_configs:',
      '  - job_name: gregor',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${broker.httpAddresses[0]!.port}']`,
      '',
    ].join('\n'));
    prometheus = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${webPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [prometheus.stdout!, prometheus.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));

    // The workload: 3 partitions, 60 records in 12 sends; a group reads the first 40 and commits, then 20 more arrive.
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 3 }] });
    await producer.connect();
    let produced = 0;
    const send = async (count: number) => {
      for (let i = 0; i < count; i += 5) {
        await producer.send({ topic: TOPIC, messages: Array.from({ length: 5 }, (_, j) => ({ key: `key-${produced + j}`, value: `value-${produced + j}` })) });
        produced += 5;
      }
    };
    await send(40);
    await consumer.connect();
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    let consumed = 0;
    await new Promise<void>((resolve) => void consumer.run({ eachMessage: async () => { if (++consumed === 40) resolve(); } }));
    await consumer.stop();
    await consumer.disconnect();
    await send(20);
    const workloadDone = Date.now();

    // Wait for a scrape that began after the workload (the target's lastScrape is when it began).
    let target: Target | undefined;
    for (;;) {
      const data = await prometheusApi<{ activeTargets: Target[] }>(webPort, 'targets').catch(() => ({ activeTargets: [] }));
      target = data.activeTargets[0];
      if (target !== undefined && Date.parse(target.lastScrape) > workloadDone) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.deepEqual({ health: target.health, lastError: target.lastError }, { health: 'up', lastError: '' });
    assert.deepEqual(await query(webPort, 'up{job="gregor"}', ['job']), { gregor: 1 });

    assert.deepEqual(await query(webPort, `kafka_server_brokertopicmetrics_messagesin_total{topic="${TOPIC}"}`, ['topic']), { [TOPIC]: produced });
    assert.equal(produced, 60);
    // The group coordinator's writes are counted too, as Kafka counts them: every record in __consumer_offsets.
    const offsetsWritten = await query(webPort, 'sum(kafka_log_log_logendoffset{topic="__consumer_offsets"})', []);
    assert.ok(offsetsWritten['']! > 0);
    assert.deepEqual(await query(webPort, 'kafka_server_brokertopicmetrics_messagesin_total{topic="__consumer_offsets"}', ['topic']),
      { __consumer_offsets: offsetsWritten[''] });
    assert.deepEqual(await query(webPort, 'kafka_server_brokertopicmetrics_messagesin_total{topic=""}', []), { '': produced + offsetsWritten['']! });
    // One broker: nothing under-replicated, under min ISR or offline; every partition at min ISR (1).
    const partitions = (await query(webPort, 'kafka_server_replicamanager_partitioncount', ['job'])).gregor!;
    assert.deepEqual(await query(webPort, '{__name__=~"kafka_server_replicamanager_(underreplicatedpartitions|underminisrpartitioncount|atminisrpartitioncount)|kafka_controller_kafkacontroller_offlinepartitionscount"}', ['__name__']), {
      kafka_server_replicamanager_underreplicatedpartitions: 0, kafka_server_replicamanager_underminisrpartitioncount: 0,
      kafka_server_replicamanager_atminisrpartitioncount: partitions, kafka_controller_kafkacontroller_offlinepartitionscount: 0,
    });

    // kafka-consumer-groups --describe: GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG ...
    const described = await runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', `127.0.0.1:${broker.port}`, '--describe', '--group', GROUP]);
    const toolLag: Record<string, number> = {};
    for (const line of described.split('\n')) {
      const columns = line.trim().split(/\s+/);
      if (columns[0] === GROUP && columns[1] === TOPIC) toolLag[`${TOPIC}/${columns[2]}`] = Number(columns[5]);
    }
    assert.equal(Object.keys(toolLag).length, 3, described);
    assert.equal(Object.values(toolLag).reduce((a, b) => a + b, 0), 20);
    assert.deepEqual(await query(webPort, `kafka_consumergroup_lag{consumergroup="${GROUP}"}`, ['topic', 'partition']), toolLag);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nprometheus said:\n${output.join('').slice(-4000)}`, { cause: err });
  } finally {
    if (prometheus !== undefined && prometheus.exitCode === null) {
      prometheus.kill('SIGTERM');
      await once(prometheus, 'exit');
    }
    await producer.disconnect();
    await admin.disconnect();
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
