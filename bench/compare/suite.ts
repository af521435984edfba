// Every workload against one broker, in a fixed order, recording figures as it goes. The order matters: the
// broker starts empty, restart timings come after the data is written, and the 10,000-partition Metadata test
// comes last because so many partitions weigh on everything after them.
import { performance } from 'node:perf_hooks';
import { caseLabel, type Plan } from './plan.js';
import type { BrokerLauncher, RunningBroker } from './brokers.js';
import { createTopics, deleteTopics, diskUsage } from './admin.js';
import { runBrokerBound } from './broker-bound.js';
import { consumerPerfTest, endToEndLatency, producerPerfTest, rdkafkaProducer, type ProduceCase } from './clients.js';
import { commitOffsets, expectedOffsets, waitForOffsets, type CommitPlan } from './group-commits.js';
import { cpuSeconds, isAlive, rssBytes, sampleRss, startedAtSinceBoot, uptimeSeconds } from './proc.js';
import { manyProducers, openIdleConnections, timeMetadata } from './wire.js';

export const WORKLOADS = ['startup', 'memory', 'produce-java', 'produce-rdkafka', 'broker-bound', 'fetch', 'cpu', 'latency', 'scale'] as const;
export type WorkloadId = (typeof WORKLOADS)[number];

export interface Figure {
  workload: WorkloadId;
  case: string;
  unit: string;
  better: 'higher' | 'lower';
  value: number;
}

export interface SuiteContext {
  plan: Plan;
  only: ReadonlySet<WorkloadId>;
  /** Records/s for the latency test (decided by the caller, the same for both brokers). */
  latencyRate(): number;
  record(figure: Figure): void;
  log(message: string): void;
  /** A step that failed: reported in BENCHMARKS.md instead of a figure. */
  fail(step: string, error: unknown): void;
}

const MB = 1e6;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSuite(launcher: BrokerLauncher, ctx: SuiteContext): Promise<void> {
  const { plan, only } = ctx;
  const wants = (...ids: WorkloadId[]) => ids.some((id) => only.has(id));
  const kind = launcher.kind;
  let broker: RunningBroker = await launcher.start(true);
  ctx.log(`${kind} started on ${broker.bootstrap} (pid ${broker.pid}) in ${broker.startupMs.toFixed(0)} ms`);
  ctx.record({ workload: 'startup', case: 'empty data dir', unit: 'ms', better: 'lower', value: broker.startupMs });

  const step = async (name: string, body: () => Promise<void>) => {
    if (!isAlive(broker.pid)) throw new Error(`${kind} is no longer running (before ${name})`);
    ctx.log(`${kind}: ${name}`);
    try {
      await body();
    } catch (error) {
      ctx.fail(`${kind}: ${name}`, error);
    }
  };

  try {
    if (wants('memory')) {
      await step('idle RSS', async () => {
        await sleep(plan.idleSettleSeconds * 1000);
        ctx.record({ workload: 'memory', case: 'idle', unit: 'MB', better: 'lower', value: rssBytes(broker.pid) / MB });
      });
      await step(`${plan.idleConnections} idle connections`, async () => {
        const connections = await openIdleConnections(broker.port, plan.idleConnections);
        await sleep(2000);
        ctx.record({ workload: 'memory', case: `${plan.idleConnections} idle connections`, unit: 'MB', better: 'lower', value: rssBytes(broker.pid) / MB });
        await connections.close();
      });
    }

    const produceCpu = { seconds: 0, bytes: 0 };
    const produceTopics: string[] = [];
    const produceAll = async (client: 'java' | 'rdkafka') => {
      for (const [i, c] of plan.produceCases.entries()) {
        await step(`produce ${client} ${caseLabel(c)}`, async () => {
          const topic = `produce-${client}-${i}`;
          produceTopics.push(topic);
          await createTopics(broker.bootstrap, [{ name: topic, partitions: c.partitions }]);
          const records = Math.max(1000, Math.round((plan.produceMB * MB) / c.recordSize));
          const cpu0 = cpuSeconds(broker.pid);
          const result = client === 'java' ? await producerPerfTest(broker.bootstrap, topic, records, c) : await rdkafkaProducer(broker.bootstrap, topic, records, c);
          produceCpu.seconds += cpuSeconds(broker.pid) - cpu0;
          produceCpu.bytes += records * c.recordSize;
          ctx.record({ workload: client === 'java' ? 'produce-java' : 'produce-rdkafka', case: caseLabel(c), unit: 'MB/s', better: 'higher', value: result.mbPerSecond });
        });
      }
    };
    if (wants('produce-java', 'produce-rdkafka', 'cpu', 'memory')) {
      const peak = sampleRss(broker.pid);
      if (wants('produce-java', 'cpu', 'memory')) await produceAll('java');
      if (wants('produce-rdkafka')) await produceAll('rdkafka');
      const peakRss = peak.stop();
      if (wants('memory')) ctx.record({ workload: 'memory', case: 'peak during produce', unit: 'MB', better: 'lower', value: peakRss / MB });
      if (wants('cpu') && produceCpu.bytes > 0)
        ctx.record({ workload: 'cpu', case: 'per GB produced', unit: 'CPU-s/GB', better: 'lower', value: produceCpu.seconds / (produceCpu.bytes / 1e9) });
      // The restart timings want a known amount of data, not whatever the produce matrix left behind.
      await step('delete the produce topics', () => deleteTopics(broker.bootstrap, produceTopics));
    }

    if (wants('broker-bound')) await runBrokerBound(broker, { plan, record: (figure) => ctx.record(figure), step });

    if (wants('fetch', 'cpu')) {
      await step(`fetch ${plan.fetchMB} MB`, async () => {
        const fill: ProduceCase = { recordSize: 1024, acks: '1', compression: 'none', partitions: 8 };
        const records = Math.round((plan.fetchMB * MB) / fill.recordSize);
        await createTopics(broker.bootstrap, [{ name: 'fetch', partitions: fill.partitions }]);
        await producerPerfTest(broker.bootstrap, 'fetch', records, fill);
        const cpu0 = cpuSeconds(broker.pid);
        const result = await consumerPerfTest(broker.bootstrap, 'fetch', records);
        const cpu = cpuSeconds(broker.pid) - cpu0;
        ctx.record({ workload: 'fetch', case: `${plan.fetchMB} MB, 1 KiB records, 8p`, unit: 'MB/s', better: 'higher', value: result.mbPerSecond });
        if (wants('cpu')) ctx.record({ workload: 'cpu', case: 'per GB fetched', unit: 'CPU-s/GB', better: 'lower', value: cpu / ((records * fill.recordSize) / 1e9) });
      });
    }

    if (wants('latency')) {
      await step('end-to-end latency', async () => {
        const rate = ctx.latencyRate();
        await createTopics(broker.bootstrap, [{ name: 'latency', partitions: 1 }]);
        const result = await endToEndLatency(broker.bootstrap, 'latency', rate, plan.latencySeconds, 1024);
        const at = `1 KiB at ${rate.toLocaleString('en-US')}/s`;
        ctx.record({ workload: 'latency', case: `p50, ${at}`, unit: 'ms', better: 'lower', value: result.p50Ms });
        ctx.record({ workload: 'latency', case: `p99, ${at}`, unit: 'ms', better: 'lower', value: result.p99Ms });
        ctx.record({ workload: 'latency', case: `p99.9, ${at}`, unit: 'ms', better: 'lower', value: result.p999Ms });
      });
    }

    if (wants('scale')) {
      await step(`${plan.producerConnections} producer connections`, async () => {
        await createTopics(broker.bootstrap, [{ name: 'many-producers', partitions: 8 }]);
        const result = await manyProducers(broker.port, 'many-producers', 8, plan.producerConnections, plan.requestsPerProducerConnection);
        const label = `${plan.producerConnections.toLocaleString('en-US')} producer connections`;
        ctx.record({ workload: 'scale', case: `${label}, throughput`, unit: 'MB/s', better: 'higher', value: result.mbPerSecond });
        ctx.record({ workload: 'scale', case: `${label}, p99 produce`, unit: 'ms', better: 'lower', value: result.p99Ms });
      });
    }

    if (wants('startup')) {
      await step(`restarts with ~${plan.restartDataGB} GB`, async () => {
        const target = plan.restartDataGB * 1e9;
        // Deleted topics' files go after the delete delay (60 s); wait for that before topping up.
        for (let waited = 0; diskUsage(launcher.dataDir) > target * 1.05 && waited < 150; waited += 5) await sleep(5000);
        const missing = target - diskUsage(launcher.dataDir);
        if (missing > 0) {
          const fill: ProduceCase = { recordSize: 1024, acks: '1', compression: 'none', partitions: 8 };
          await createTopics(broker.bootstrap, [{ name: 'bulk', partitions: fill.partitions }]);
          await producerPerfTest(broker.bootstrap, 'bulk', Math.ceil(missing / fill.recordSize), fill);
        }
        const gb = (diskUsage(launcher.dataDir) / 1e9).toFixed(1);
        await broker.stop();
        broker = await launcher.start(false);
        ctx.record({ workload: 'startup', case: `~${plan.restartDataGB} GB, after clean shutdown`, unit: 'ms', better: 'lower', value: broker.startupMs });
        ctx.log(`${kind}: ${gb} GB on disk; restart after clean shutdown ${broker.startupMs.toFixed(0)} ms`);
        await broker.kill();
        broker = await launcher.start(false);
        ctx.record({ workload: 'startup', case: `~${plan.restartDataGB} GB, after SIGKILL`, unit: 'ms', better: 'lower', value: broker.startupMs });
        ctx.log(`${kind}: restart after SIGKILL ${broker.startupMs.toFixed(0)} ms`);
      });
    }

    if (wants('scale')) {
      await step(`Metadata for ${plan.metadataPartitions} partitions`, async () => {
        const topics = Array.from({ length: Math.ceil(plan.metadataPartitions / 100) }, (_, i) => ({ name: `meta-${String(i).padStart(4, '0')}`, partitions: 100 }));
        const t0 = performance.now();
        await createTopics(broker.bootstrap, topics);
        const createSeconds = (performance.now() - t0) / 1000;
        ctx.record({ workload: 'scale', case: `create ${plan.metadataPartitions.toLocaleString('en-US')} partitions (100 per topic)`, unit: 's', better: 'lower', value: createSeconds });
        const result = await timeMetadata(broker.port, 20);
        ctx.log(`${kind}: Metadata listed ${result.partitions} partitions in ${result.bytes} bytes`);
        ctx.record({ workload: 'scale', case: `Metadata, ${plan.metadataPartitions.toLocaleString('en-US')} partitions`, unit: 'ms', better: 'lower', value: result.medianMs });
      });
    }

    if (wants('startup') && plan.restartGroupCommits.length > 0) {
      await step(`restarts after ${plan.restartGroupCommits.join(' and ')} group commits`, async () => {
        // A fresh broker: the commits' load is timed alone, not behind the data and partitions of the steps above.
        await broker.stop();
        broker = await launcher.start(true);
        const commits: CommitPlan = { group: 'bench-commits', topic: 'commits', partitions: 100 };
        await createTopics(broker.bootstrap, [{ name: commits.topic, partitions: commits.partitions }]);
        let done = 0;
        for (const total of plan.restartGroupCommits) {
          const t0 = performance.now();
          await commitOffsets(broker.port, commits, done, total);
          ctx.log(`${kind}: ${total - done} OffsetCommits at ${((total - done) / ((performance.now() - t0) / 1000)).toFixed(0)}/s`);
          done = total;
          await broker.stop();
          broker = await launcher.start(false);
          const pid = broker.pid;
          await waitForOffsets(broker.port, commits, expectedOffsets(commits, total), () => isAlive(pid));
          const servedMs = (uptimeSeconds() - startedAtSinceBoot(pid)) * 1000;
          const label = `restart after ${total.toLocaleString('en-US')} group commits`;
          ctx.record({ workload: 'startup', case: label, unit: 'ms', better: 'lower', value: servedMs });
          ctx.log(`${kind}: ${label}: ApiVersions after ${broker.startupMs.toFixed(0)} ms, every offset served after ${servedMs.toFixed(0)} ms`);
        }
      });
    }
  } finally {
    if (isAlive(broker.pid)) await broker.stop();
  }
}
