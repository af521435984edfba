// From the recorded figures of every run to BENCHMARKS.md: per workload a chart of gregor/Kafka ratios and a table
// of absolute figures; a summary of the issue's targets. Only the part between the markers is rewritten, so the
// hand-written analysis around it stays.
import type { BrokerKind } from './brokers.js';
import type { Plan } from './plan.js';
import { pairedRatios, spread, type Spread } from './stats.js';
import type { Figure, WorkloadId } from './suite.js';
import { meetsTarget, ratioChart, type RatioBar } from './svg.js';

export interface RecordedFigure extends Figure {
  broker: BrokerKind;
  run: number;
}

export interface ResultsFile {
  startedAt: string;
  finishedAt: string;
  plan: Plan;
  host: { cpus: number; cpuModel: string; memoryGB: number; node: string; loadBefore: number[]; loadAfter: number[] };
  latencyRate: number;
  figures: RecordedFigure[];
  failures: { run: number; step: string; message: string }[];
}

export const WORKLOAD_TITLES: Record<WorkloadId, string> = {
  'produce-java': 'Produce throughput, kafka-producer-perf-test (Java client)',
  'produce-rdkafka': 'Produce throughput, librdkafka (confluent-kafka)',
  'broker-bound': 'Broker-bound produce and fetch (bench/loadgen, franz-go), with broker CPU-seconds per GB',
  fetch: 'Fetch throughput, kafka-consumer-perf-test',
  latency: 'End-to-end latency, produce to consume (Java client)',
  startup: 'Start-up: process start to first successful ApiVersions (to OffsetFetch serving every offset after group commits)',
  memory: 'Memory: broker RSS',
  cpu: 'CPU: broker CPU-seconds per GB',
  scale: 'Scale',
};

/** The issue's targets, as ratios gregor/Kafka. */
export function targetFor(workload: WorkloadId, label: string): number | undefined {
  if (workload === 'produce-java' || workload === 'produce-rdkafka' || workload === 'fetch') return 1.0;
  if (workload === 'latency' && label.startsWith('p99,')) return 1.0;
  // Issue 23: throughput at or above Kafka's, broker CPU per GB at or below (the acknowledgement p99 and the
  // generator's own CPU are shown only).
  if (workload === 'broker-bound') return label.endsWith(', p99') || label.endsWith(', client CPU') ? undefined : 1.0;
  // Issue 24: at or below Kafka's after group commits (Kafka serves them after it listens, gregor before).
  if (workload === 'startup' && label.startsWith('restart after')) return 1.0;
  if (workload === 'startup') return 0.15;
  if (workload === 'memory' && label === 'idle') return 0.15;
  if (workload === 'memory' && label === 'peak during produce') return 0.3;
  return undefined;
}

export interface Row {
  workload: WorkloadId;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
  gregor: Spread;
  kafka: Spread;
  ratio: Spread;
  target?: number;
}

export function summarise(results: Pick<ResultsFile, 'figures' | 'plan'>): Row[] {
  const keyed = new Map<string, RecordedFigure[]>();
  for (const figure of results.figures) {
    const key = `${figure.workload}\u0000${figure.case}`;
    keyed.set(key, [...(keyed.get(key) ?? []), figure]);
  }
  const rows: Row[] = [];
  for (const figures of keyed.values()) {
    const first = figures[0]!;
    const perRun = (broker: BrokerKind) => {
      const values: (number | undefined)[] = Array.from({ length: results.plan.runs }, () => undefined);
      for (const f of figures) if (f.broker === broker) values[f.run] = f.value;
      return values;
    };
    const gregor = perRun('gregor');
    const kafka = perRun('kafka');
    const target = targetFor(first.workload, first.case);
    rows.push({
      workload: first.workload,
      label: first.case,
      unit: first.unit,
      better: first.better,
      gregor: spread(gregor.filter((v): v is number => v !== undefined)),
      kafka: spread(kafka.filter((v): v is number => v !== undefined)),
      ratio: spread(pairedRatios(gregor, kafka)),
      ...(target === undefined ? {} : { target }),
    });
  }
  return rows;
}

const num = (value: number) => (!Number.isFinite(value) ? '–' : Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toPrecision(3));
const span = (s: Spread) => (s.n === 0 ? '–' : s.n === 1 ? num(s.median) : `${num(s.median)} (${num(s.min)}–${num(s.max)})`);
const ratioText = (s: Spread) => (s.n === 0 ? '–' : s.n === 1 ? `${num(s.median)}×` : `${num(s.median)}× (${num(s.min)}–${num(s.max)})`);

function verdict(row: Row): string {
  if (row.ratio.n === 0) return 'no figure';
  const met = meetsTarget({ median: row.ratio.median, better: row.better, ...(row.target === undefined ? {} : { target: row.target }) });
  if (row.target === undefined) return met ? 'better than Kafka' : 'worse than Kafka';
  return `${met ? 'met' : 'NOT met'} (${row.better === 'higher' ? '≥' : '≤'} ${row.target}×)`;
}

export function chartFor(workload: WorkloadId, rows: readonly Row[]): string {
  const bars: RatioBar[] = rows.map((r) => ({
    label: r.label,
    min: r.ratio.min,
    median: r.ratio.median,
    max: r.ratio.max,
    better: r.better,
    ...(r.target === undefined ? {} : { target: r.target }),
  }));
  return ratioChart(WORKLOAD_TITLES[workload], bars);
}

export const RESULTS_START = '<!-- bench:results:start (generated by npm run bench; edits here are overwritten) -->';
export const RESULTS_END = '<!-- bench:results:end -->';

/** The generated section: conditions, target summary, and one chart and table per workload. */
export function resultsMarkdown(results: ResultsFile, rows: readonly Row[], chartPath: (workload: WorkloadId) => string): string {
  const { plan, host } = results;
  const out: string[] = [RESULTS_START, ''];
  out.push(`### Conditions of this run`, '');
  out.push(`- ${plan.quick ? '**--quick** run (small sizes, reduced produce matrix: indicative only)' : 'full run'}, ${plan.runs} run(s) per broker, ${results.startedAt} → ${results.finishedAt}`);
  out.push(`- ${host.cpus} × ${host.cpuModel}, ${host.memoryGB} GB RAM, node ${host.node}; load average before ${host.loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${host.loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  out.push(`- sizes: ${plan.produceMB} MB per produce case, ${plan.fetchMB} MB fetched, ${results.latencyRate > 0 ? `latency ${plan.latencySeconds} s at ${results.latencyRate.toLocaleString('en-US')} records/s of 1 KiB, ` : ''}${plan.metadataPartitions.toLocaleString('en-US')} partitions for Metadata, ~${plan.restartDataGB} GB before the restarts`);
  out.push('');
  const targeted = rows.filter((r) => r.target !== undefined);
  if (targeted.length > 0) {
    out.push('### Targets', '', '| workload | case | gregor/Kafka | target |', '|---|---|---|---|');
    for (const r of targeted) out.push(`| ${r.workload} | ${r.label} | ${ratioText(r.ratio)} | ${verdict(r)} |`);
    out.push('');
  }
  const workloads = [...new Set(rows.map((r) => r.workload))];
  for (const workload of workloads) {
    const mine = rows.filter((r) => r.workload === workload);
    out.push(`### ${WORKLOAD_TITLES[workload]}`, '', `![${workload}](${chartPath(workload)})`, '');
    out.push('| case | unit | gregor | Kafka 4.3.1 | gregor/Kafka | |', '|---|---|---|---|---|---|');
    for (const r of mine) out.push(`| ${r.label} | ${r.unit} (${r.better} is better) | ${span(r.gregor)} | ${span(r.kafka)} | ${ratioText(r.ratio)} | ${verdict(r)} |`);
    out.push('');
  }
  if (results.failures.length > 0) {
    out.push('### Steps that failed in this run', '');
    for (const f of results.failures) out.push(`- run ${f.run + 1}, ${f.step}: ${f.message.replace(/\s+/g, ' ').slice(0, 300)}`);
    out.push('');
  }
  out.push(RESULTS_END);
  return out.join('\n');
}

/** Puts the generated section into the document, replacing the previous one (or appending it). */
export function spliceResults(document: string, section: string): string {
  const start = document.indexOf(RESULTS_START);
  const end = document.indexOf(RESULTS_END);
  if (start >= 0 && end > start) return document.slice(0, start) + section + document.slice(end + RESULTS_END.length);
  return `${document.trimEnd()}\n\n${section}\n`;
}
