// `npm run bench`: gregor against Apache Kafka 4.3.1 on this machine, the same workloads with the same clients,
// each broker started in turn (never both at once). Writes bench/results/*.json, bench/charts/*.svg and the results
// section of BENCHMARKS.md.
//   npm run bench -- [--quick] [--runs N] [--only produce-java,latency,...] [--brokers kafka] [--from bench/results/latest.json] [--no-document]
//   --quick   small sizes and a reduced produce matrix: a few minutes, indicative figures only
//   --runs    repetitions (default 3, or 1 with --quick); the run order of the brokers alternates
//   --only    a subset of: startup memory produce-java produce-rdkafka broker-bound fetch cpu latency scale
//   --no-document  print the figures and save bench/results/<time>.json only: BENCHMARKS.md, the charts and
//             latest.json stay as they are (for trying out a subset without replacing the last full run's section)
//   --from    no measuring: rewrite the charts and BENCHMARKS.md from a saved results file
//   --brokers gregor,kafka (default both; one alone is for trying a workload out, it gives no ratios)
//   GREGOR_BENCH_KAFKA_PORT=<port>: the reference broker's port (and port + 1), instead of a free pair
import { cpus, loadavg, totalmem } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../compat-tests/lib/paths.js';
import { installReference } from '../compat-tests/reference/broker.js';
import { gregorLauncher, kafkaLauncher, type BrokerKind, type BrokerLauncher } from './compare/brokers.js';
import { fullPlan, quickPlan } from './compare/plan.js';
import { chartFor, resultsMarkdown, spliceResults, summarise, type ResultsFile, type Row } from './compare/report.js';
import { runSuite, WORKLOADS, type WorkloadId } from './compare/suite.js';

const benchDir = join(repoRoot, 'bench');
const resultsDir = join(benchDir, 'results');
const chartsDir = join(benchDir, 'charts');
const documentPath = join(repoRoot, 'BENCHMARKS.md');

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      only: { type: 'string' },
      from: { type: 'string' },
      brokers: { type: 'string', default: 'gregor,kafka' },
      'no-document': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && !(Number.isInteger(runs) && runs >= 1)) throw new Error(`--runs expects a whole number ≥ 1, got ${values.runs}`);
  const only = new Set<WorkloadId>();
  for (const name of (values.only ?? WORKLOADS.join(',')).split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!(WORKLOADS as readonly string[]).includes(name)) throw new Error(`--only: unknown workload ${name} (one of ${WORKLOADS.join(', ')})`);
    only.add(name as WorkloadId);
  }
  const brokers = (values.brokers ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const b of brokers) if (b !== 'gregor' && b !== 'kafka') throw new Error(`--brokers: unknown broker ${b} (gregor, kafka)`);
  return { quick: values.quick === true, runs, only, from: values.from, brokers: new Set(brokers as BrokerKind[]), document: values['no-document'] !== true };
}

function writeReport(results: ResultsFile, document = true): void {
  const rows = summarise(results);
  if (document) writeDocument(results, rows);
  for (const r of rows) {
    const ratio = r.ratio.n === 0 ? 'no figure' : `${r.ratio.median.toFixed(3)}×`;
    process.stdout.write(`${r.workload.padEnd(16)} ${r.label.padEnd(44)} gregor ${r.gregor.median.toFixed(2).padStart(10)}  kafka ${r.kafka.median.toFixed(2).padStart(10)} ${r.unit.padEnd(9)} ${ratio}\n`);
  }
}

function writeDocument(results: ResultsFile, rows: Row[]): void {
  mkdirSync(chartsDir, { recursive: true });
  const workloads = [...new Set(rows.map((r) => r.workload))];
  for (const workload of workloads) writeFileSync(join(chartsDir, `${workload}.svg`), chartFor(workload, rows.filter((r) => r.workload === workload)));
  const section = resultsMarkdown(results, rows, (workload) => `bench/charts/${workload}.svg`);
  const document = existsSync(documentPath) ? readFileSync(documentPath, 'utf8') : '# Benchmarks\n';
  writeFileSync(documentPath, spliceResults(document, section));
  log(`wrote ${documentPath} and ${workloads.length} charts in ${chartsDir}`);
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.from !== undefined) {
    writeReport(JSON.parse(readFileSync(options.from, 'utf8')) as ResultsFile);
    return;
  }
  const plan = options.quick ? quickPlan(options.runs ?? 1) : fullPlan(options.runs ?? 3);
  await installReference();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const workDir = join(benchDir, '.cache', `run-${stamp}`);
  mkdirSync(workDir, { recursive: true });
  const launchers: Record<BrokerKind, BrokerLauncher> = { gregor: await gregorLauncher(workDir), kafka: await kafkaLauncher() };
  const disposeAll = () => Promise.allSettled(Object.values(launchers).map((l) => l.dispose()));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the brokers`);
      void disposeAll().then(() => process.exit(130));
    });
  }

  const results: ResultsFile = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    plan,
    host: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version, loadBefore: loadavg(), loadAfter: [] },
    latencyRate: 0,
    figures: [],
    failures: [],
  };
  // A quarter of Kafka's maximum for 1 KiB records (kafka-producer-perf-test, acks=1, one partition), fixed at first
  // use so every run of both brokers sees the same rate. Kafka goes first in run 1 so that figure exists by then.
  // Half of it (the example) saturated this 2-core machine: the latency client's producer and consumer share
  // the cores with the broker, and both brokers showed p50s of seconds, i.e. a queue in the client.
  const latencyRate = () => {
    if (results.latencyRate > 0) return results.latencyRate;
    const kafkaMax = results.figures.find((f) => f.broker === 'kafka' && f.workload === 'produce-java' && f.case === '1 KiB acks=1 none 1p');
    const quarter = kafkaMax === undefined ? plan.latencyFallbackRate : Math.round((kafkaMax.value * 1e6) / 1024 / 4 / 100) * 100;
    results.latencyRate = Math.max(100, Math.min(plan.latencyMaxRate, quarter));
    return results.latencyRate;
  };

  try {
    for (let run = 0; run < plan.runs; run++) {
      const order: BrokerKind[] = run % 2 === 0 ? ['kafka', 'gregor'] : ['gregor', 'kafka'];
      for (const kind of order.filter((k) => options.brokers.has(k))) {
        log(`run ${run + 1}/${plan.runs}: ${kind}`);
        try {
          await runSuite(launchers[kind], {
            plan,
            only: options.only,
            latencyRate,
            record: (figure) => results.figures.push({ ...figure, broker: kind, run }),
            log,
            fail: (step, error) => {
              const message = error instanceof Error ? error.message : String(error);
              log(`FAILED ${step}: ${message}`);
              results.failures.push({ run, step, message });
            },
          });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log(`FAILED ${kind} run ${run + 1}: ${message}`);
          results.failures.push({ run, step: `${kind}: suite`, message });
        } finally {
          await launchers[kind].dispose().catch((error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            log(`FAILED to clean up after ${kind}: ${message}`);
            results.failures.push({ run, step: `${kind}: clean-up`, message });
          });
        }
      }
    }
  } finally {
    await disposeAll();
  }
  results.finishedAt = new Date().toISOString();
  results.host.loadAfter = loadavg();
  mkdirSync(resultsDir, { recursive: true });
  const json = JSON.stringify(results, null, 2);
  writeFileSync(join(resultsDir, `${stamp}${plan.quick ? '-quick' : ''}.json`), json);
  if (options.document) writeFileSync(join(resultsDir, 'latest.json'), json);
  writeReport(results, options.document);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
