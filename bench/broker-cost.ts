// What the broker itself spends on a produce case and a fetch case, in units that the other processes sharing the
// machine disturb least: the broker's CPU-seconds per GB of payload (utime+stime of all its threads, /proc), its peak
// RSS (VmHWM, reset before each case so the fetch figure is not the produce figure), and for gregor the V8 garbage
// collections (--trace-gc lines in its log). Throughput (MB/s) is printed too but depends on the load around it.
//   node dist/bench/broker-cost.js [--brokers gregor,kafka] [--runs 3] [--mb 200] [--record-size 1024]
//       [--partitions 8] [--acks 1] [--compression none] [--producer java|rdkafka|connections [--connections 1000]] [--gregor dist/gregor.mjs] [--label before]
//       [--keep-log gregor.log]
// Clients are Kafka's kafka-producer-perf-test (or the bench's librdkafka producer, or its many raw Produce connections
// with gregor's codec, acks=1) and kafka-consumer-perf-test, as in `npm run bench`. Every run starts each broker afresh. Prints one JSON line per case and a table of medians.
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../compat-tests/lib/paths.js';
import { installReference } from '../compat-tests/reference/broker.js';
import { createTopics } from './compare/admin.js';
import { gregorLauncher, kafkaLauncher, type BrokerKind, type BrokerLauncher, type RunningBroker } from './compare/brokers.js';
import { consumerPerfTest, producerPerfTest, rdkafkaProducer, type ProduceCase } from './compare/clients.js';
import { measureBrokerCost, type BrokerCost } from './compare/cost.js';
import { manyProducers } from './compare/wire.js';

function options() {
  const { values } = parseArgs({
    options: {
      brokers: { type: 'string', default: 'gregor' },
      runs: { type: 'string', default: '3' },
      mb: { type: 'string', default: '200' },
      'record-size': { type: 'string', default: '1024' },
      partitions: { type: 'string', default: '8' },
      acks: { type: 'string', default: '1' },
      compression: { type: 'string', default: 'none' },
      gregor: { type: 'string' },
      producer: { type: 'string', default: 'java' },
      connections: { type: 'string', default: '1000' },
      label: { type: 'string', default: '' },
      'keep-log': { type: 'string' },
    },
    strict: true,
  });
  const brokers = values.brokers!.split(',').map((s) => s.trim()) as BrokerKind[];
  for (const b of brokers) if (b !== 'gregor' && b !== 'kafka') throw new Error(`--brokers: unknown broker ${b} (gregor, kafka)`);
  const acks = values.acks === 'all' || values.acks === '-1' ? 'all' : '1';
  const compression = values.compression === 'lz4' ? 'lz4' : 'none';
  const c: ProduceCase = { recordSize: Number(values['record-size']), acks, compression, partitions: Number(values.partitions) };
  const producer = values.producer as 'java' | 'rdkafka' | 'connections';
  if (!['java', 'rdkafka', 'connections'].includes(producer)) throw new Error(`--producer: java, rdkafka or connections, not ${values.producer}`);
  return { producer, connections: Number(values.connections), brokers, runs: Number(values.runs), mb: Number(values.mb), c, gregorMain: values.gregor === undefined ? undefined : resolve(values.gregor), label: values.label!, keepLog: values['keep-log'] };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const o = options();
  const workDir = join(repoRoot, 'bench', '.cache', `cost-${process.pid}`);
  mkdirSync(workDir, { recursive: true });
  const gcLog = join(workDir, 'gregor.log');
  const launchers: Partial<Record<BrokerKind, BrokerLauncher>> = {};
  if (o.brokers.includes('gregor')) launchers.gregor = await gregorLauncher(workDir, { main: o.gregorMain, nodeArgs: ['--trace-gc'] });
  if (o.brokers.includes('kafka')) {
    await installReference();
    launchers.kafka = await kafkaLauncher();
  }
  const rows: Array<{ broker: BrokerKind; step: 'produce' | 'fetch'; cost: BrokerCost; mbPerSecond: number }> = [];
  process.stderr.write(`load average before ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  try {
    for (let run = 0; run < o.runs; run++) {
      for (const kind of run % 2 === 0 ? o.brokers : [...o.brokers].reverse()) {
        const launcher = launchers[kind]!;
        let broker: RunningBroker | undefined;
        try {
          broker = await launcher.start(true);
          const topic = `cost-${run}`;
          await createTopics(broker.bootstrap, [{ name: topic, partitions: o.c.partitions }]);
          // Many connections: each sends requests of 10 records, one at a time, all at once (the bench's scale case).
          const perConnection = Math.max(1, Math.round((o.mb * 1e6) / o.c.recordSize / 10 / o.connections));
          const records = o.producer === 'connections' ? perConnection * 10 * o.connections : Math.round((o.mb * 1e6) / o.c.recordSize);
          const bytes = records * o.c.recordSize;
          const log = kind === 'gregor' ? gcLog : undefined;
          const b = broker;
          let mbPerSecond = 0;
          const produce = await measureBrokerCost(b.pid, bytes, async () => {
            if (o.producer === 'connections') {
              const result = await manyProducers(b.port, topic, o.c.partitions, o.connections, perConnection, 10, o.c.recordSize);
              mbPerSecond = result.mbPerSecond;
              process.stderr.write(`${kind}: ${o.connections} connections, p99 ${result.p99Ms.toFixed(0)} ms\n`);
            } else {
              mbPerSecond = (o.producer === 'java' ? await producerPerfTest(b.bootstrap, topic, records, o.c) : await rdkafkaProducer(b.bootstrap, topic, records, o.c)).mbPerSecond;
            }
          }, log);
          rows.push({ broker: kind, step: 'produce', cost: produce, mbPerSecond });
          process.stdout.write(`${JSON.stringify({ label: o.label, run, broker: kind, step: 'produce', mbPerSecond, ...produce })}\n`);
          const fetch = await measureBrokerCost(b.pid, bytes, async () => {
            mbPerSecond = (await consumerPerfTest(b.bootstrap, topic, records)).mbPerSecond;
          }, log);
          rows.push({ broker: kind, step: 'fetch', cost: fetch, mbPerSecond });
          process.stdout.write(`${JSON.stringify({ label: o.label, run, broker: kind, step: 'fetch', mbPerSecond, ...fetch })}\n`);
        } finally {
          if (broker !== undefined) await broker.stop().catch(() => undefined);
          await launcher.dispose();
        }
      }
    }
  } finally {
    // gregor's log (warnings, and the --trace-gc lines with each collection's reason) for a closer look.
    if (o.keepLog !== undefined && existsSync(gcLog)) copyFileSync(gcLog, o.keepLog);
    rmSync(workDir, { recursive: true, force: true });
  }
  process.stderr.write(`load average after ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  const caseName = `${o.producer === 'connections' ? `${o.connections} connections` : o.producer} producer, ${o.c.recordSize} B acks=${o.c.acks} ${o.c.compression} ${o.c.partitions}p, ${o.mb} MB`;
  process.stdout.write(`\n${o.label} ${caseName}, median (min–max) of ${o.runs}\n| broker | step | CPU-s/GB | VmHWM MB | RSS at start MB | scavenges | mark-compacts | MB/s |\n|---|---|---|---|---|---|---|---|\n`);
  for (const kind of o.brokers) {
    for (const step of ['produce', 'fetch'] as const) {
      const mine = rows.filter((r) => r.broker === kind && r.step === step);
      if (mine.length === 0) continue;
      const fmt = (xs: number[], digits: number) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
      const gc = mine.every((r) => r.cost.gc !== undefined);
      process.stdout.write(
        `| ${kind} | ${step} | ${fmt(mine.map((r) => r.cost.cpuSecondsPerGB), 2)} | ${fmt(mine.map((r) => r.cost.peakRssMB), 0)} | ${fmt(mine.map((r) => r.cost.startRssMB), 0)} | ` +
          `${gc ? fmt(mine.map((r) => r.cost.gc!.scavenges), 0) : '–'} | ${gc ? fmt(mine.map((r) => r.cost.gc!.markCompacts), 0) : '–'} | ${fmt(mine.map((r) => r.mbPerSecond), 1)} |\n`,
      );
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`broker-cost: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
