// The broker-bound workload (issue 23): the same produce and fetch cases as the Java tools', and sweeps over
// record size, partitions and connections, driven by bench/loadgen (franz-go), a client cheap enough in CPU that
// on a machine it shares with the broker the broker is the limit. Each case records throughput beside the broker's
// own CPU-seconds per GB (utime+stime of the broker process over the case, from /proc/<pid>/stat).
import type { RunningBroker } from './brokers.js';
import { createTopics, deleteTopics } from './admin.js';
import { loadgenFetch, loadgenProduce, type LoadgenProduce, type LoadgenResult } from './loadgen.js';
import type { Plan } from './plan.js';
import { cpuSeconds } from './proc.js';
import type { Figure } from './suite.js';

export const BROKER_BOUND = 'broker-bound' as const;

/** The Java tools' settings: batch.size=65536 linger.ms=5. */
const base: LoadgenProduce = { recordSize: 1024, acks: '1', compression: 'none', partitions: 8, producers: 1, lingerMs: 5, batchBytes: 65536 };
const with_ = (changes: Partial<LoadgenProduce>): LoadgenProduce => ({ ...base, ...changes });

export interface BrokerBoundPlan {
  produce: LoadgenProduce[];
  /** Payload written by each produce case (10^6 bytes); the first case's topic is then fetched back whole. */
  megabytes: number;
}

export function brokerBoundPlan(plan: Pick<Plan, 'quick'>): BrokerBoundPlan {
  if (plan.quick)
    return {
      megabytes: 200,
      produce: [base, with_({ acks: 'all' }), with_({ recordSize: 100 }), with_({ compression: 'lz4' }), with_({ partitions: 100 }), with_({ producers: 16 })],
    };
  const produce: LoadgenProduce[] = [];
  for (const recordSize of [1024, 100])
    for (const acks of ['1', 'all'] as const)
      // 8 partitions first: the first case's topic is the one fetched back.
      for (const compression of ['none', 'lz4'] as const) for (const partitions of [8, 1]) produce.push(with_({ recordSize, acks, compression, partitions }));
  // How the cost grows: record size, partitions, connections (each sweep from the 1 KiB acks=1 8p case).
  for (const recordSize of [10_240, 102_400]) produce.push(with_({ recordSize }));
  for (const partitions of [100, 1000]) produce.push(with_({ partitions }));
  for (const producers of [8, 100, 1000]) produce.push(with_({ producers }));
  return { megabytes: 1000, produce };
}

const sizeText = (bytes: number) => (bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} B`);

export function loadgenLabel(c: LoadgenProduce): string {
  return `produce ${sizeText(c.recordSize)} acks=${c.acks} ${c.compression} ${c.partitions.toLocaleString('en-US')}p ×${c.producers.toLocaleString('en-US')}`;
}

/**
 * The figures of one case: throughput, broker CPU per GB, for produce the acknowledgement p99, and the generator's
 * own CPU per GB (no target: it shows the client cost the same against both brokers, and how little).
 */
export function caseFigures(label: string, result: LoadgenResult, brokerCpuSeconds: number): Figure[] {
  const figures: Figure[] = [
    { workload: BROKER_BOUND, case: label, unit: 'MB/s', better: 'higher', value: result.mbPerSecond },
    { workload: BROKER_BOUND, case: `${label}, broker CPU`, unit: 'CPU-s/GB', better: 'lower', value: brokerCpuSeconds / (result.bytes / 1e9) },
  ];
  if (result.p99Ms !== undefined) figures.push({ workload: BROKER_BOUND, case: `${label}, p99`, unit: 'ms', better: 'lower', value: result.p99Ms });
  figures.push({ workload: BROKER_BOUND, case: `${label}, client CPU`, unit: 'CPU-s/GB', better: 'lower', value: result.clientCpuSeconds / (result.bytes / 1e9) });
  return figures;
}

export interface BrokerBoundContext {
  plan: Pick<Plan, 'quick'>;
  record(figure: Figure): void;
  /** Runs one named step, reporting its failure instead of ending the workload. */
  step(name: string, body: () => Promise<void>): Promise<void>;
}

/** Every case against one running broker, then deletes its topics. */
export async function runBrokerBound(broker: RunningBroker, ctx: BrokerBoundContext): Promise<void> {
  const { produce, megabytes } = brokerBoundPlan(ctx.plan);
  const topics: string[] = [];
  const measured = async <T extends LoadgenResult>(body: () => Promise<T>) => {
    const cpu0 = cpuSeconds(broker.pid);
    const result = await body();
    return { result, cpu: cpuSeconds(broker.pid) - cpu0 };
  };
  // A warm-up, not measured: a freshly started JVM spends its first seconds compiling (Kafka's first case here
  // measured at a third of its later rate), and in a full run the Java tools' cases have warmed Kafka by now.
  await ctx.step('loadgen warm-up', async () => {
    await createTopics(broker.bootstrap, [{ name: 'loadgen-warm-up', partitions: base.partitions }]);
    topics.push('loadgen-warm-up');
    await loadgenProduce(broker.bootstrap, 'loadgen-warm-up', Math.round((megabytes * 1e6) / base.recordSize), base);
    await loadgenFetch(broker.bootstrap, 'loadgen-warm-up');
  });
  for (const [i, c] of produce.entries()) {
    const label = loadgenLabel(c);
    await ctx.step(`loadgen ${label}`, async () => {
      const topic = `loadgen-${i}`;
      await createTopics(broker.bootstrap, [{ name: topic, partitions: c.partitions }]);
      topics.push(topic);
      const records = Math.max(1000, Math.round((megabytes * 1e6) / c.recordSize));
      const { result, cpu } = await measured(() => loadgenProduce(broker.bootstrap, topic, records, c));
      for (const figure of caseFigures(label, result, cpu)) ctx.record(figure);
      if (i === 0) {
        // The first case's topic read back whole (from the page cache on both brokers).
        const fetched = await measured(() => loadgenFetch(broker.bootstrap, topic));
        if (fetched.result.records !== records) throw new Error(`loadgen fetch read ${fetched.result.records} of ${records} records`);
        for (const figure of caseFigures(`fetch ${megabytes} MB, ${sizeText(c.recordSize)} records, ${c.partitions}p`, fetched.result, fetched.cpu)) ctx.record(figure);
      }
    });
  }
  await ctx.step('delete the loadgen topics', () => deleteTopics(broker.bootstrap, topics));
}
