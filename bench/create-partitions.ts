// Creating many partitions through kafkajs's admin, as the `scale` workload does (100 partitions per topic, 10
// topics per CreateTopics, done when Metadata shows every leader), on a fresh gregor child (new data dir) each run.
//   node dist/bench/create-partitions.js [--topics 10] [--runs 5] [--bootstrap host:port]
//   --bootstrap  time an already running broker instead (the reference Kafka; topic names get a run suffix)
// The child is dist/gregor.mjs, as in `npm run bench`: rebuild it with `npm run build` (tsc alone leaves it stale).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gregorLauncher, type BrokerLauncher, type RunningBroker } from './compare/brokers.js';
import { createTopics } from './compare/admin.js';
import { spread } from './compare/stats.js';

const PARTITIONS_PER_TOPIC = 100;

const { values } = parseArgs({
  options: { topics: { type: 'string', default: '10' }, runs: { type: 'string', default: '5' }, bootstrap: { type: 'string' } },
  strict: true,
});
const topicCount = Number(values.topics);
const runs = Number(values.runs);
if (!Number.isInteger(topicCount) || topicCount < 1 || !Number.isInteger(runs) || runs < 1) {
  throw new Error('--topics and --runs expect whole numbers ≥ 1');
}

async function timeCreation(bootstrap: string, suffix: string): Promise<number> {
  const topics = Array.from({ length: topicCount }, (_, i) => ({ name: `create-${suffix}-${String(i).padStart(4, '0')}`, partitions: PARTITIONS_PER_TOPIC }));
  const t0 = performance.now();
  await createTopics(bootstrap, topics);
  return performance.now() - t0;
}

const times: number[] = [];
const workDir = mkdtempSync(join(tmpdir(), 'gregor-create-'));
// A launcher (data dir) per run, all removed at the end: deleting 1,000 partition dirs just before a run makes
// the file system slower for the next creations (ext4 frees and discards in the background), which would be timed.
const launchers: BrokerLauncher[] = [];
try {
  for (let run = 0; run < runs; run++) {
    let broker: RunningBroker | undefined;
    try {
      if (values.bootstrap === undefined) {
        const launcher = await gregorLauncher(join(workDir, `run-${run}`));
        launchers.push(launcher);
        broker = await launcher.start(true);
      }
      const ms = await timeCreation(broker?.bootstrap ?? values.bootstrap!, `${Date.now().toString(36)}${run}`);
      times.push(ms);
      process.stdout.write(`run ${run + 1}: ${topicCount * PARTITIONS_PER_TOPIC} partitions in ${ms.toFixed(0)} ms\n`);
    } finally {
      await broker?.stop();
    }
  }
} finally {
  for (const launcher of launchers) await launcher.dispose();
  rmSync(workDir, { recursive: true, force: true });
}
const { min, median, max } = spread(times);
process.stdout.write(`median ${median.toFixed(0)} ms (min ${min.toFixed(0)}, max ${max.toFixed(0)}) over ${runs} runs\n`);
// The launcher's stop leaves its 120 s give-up timer pending.
process.exit(0);
