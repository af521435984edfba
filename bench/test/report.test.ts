import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quickPlan } from '../compare/plan.js';
import { chartFor, resultsMarkdown, RESULTS_END, RESULTS_START, spliceResults, summarise, targetFor, type RecordedFigure, type ResultsFile } from '../compare/report.js';
import { meetsTarget, ratioChart } from '../compare/svg.js';

const produce = (broker: 'gregor' | 'kafka', run: number, value: number): RecordedFigure => ({ broker, run, workload: 'produce-java', case: '1 KiB acks=1 none 1p', unit: 'MB/s', better: 'higher', value });
const idle = (broker: 'gregor' | 'kafka', run: number, value: number): RecordedFigure => ({ broker, run, workload: 'memory', case: 'idle', unit: 'MB', better: 'lower', value });

function results(figures: RecordedFigure[]): ResultsFile {
  return {
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:05:00Z',
    plan: quickPlan(3),
    host: { cpus: 2, cpuModel: 'test cpu', memoryGB: 8, node: 'v20', loadBefore: [1, 1, 1], loadAfter: [2, 2, 2] },
    latencyRate: 0,
    figures,
    failures: [{ run: 0, step: 'gregor: fetch 100 MB', message: 'kafka-consumer-perf-test: exit 1' }],
  };
}

test('summarise: ratios per run, then min / median / max of them', () => {
  const rows = summarise(results([produce('gregor', 0, 100), produce('kafka', 0, 50), produce('gregor', 1, 90), produce('kafka', 1, 100), produce('gregor', 2, 120), produce('kafka', 2, 100), idle('gregor', 0, 40), idle('kafka', 0, 400)]));
  const row = rows.find((r) => r.workload === 'produce-java')!;
  assert.deepEqual(row.ratio, { min: 0.9, median: 1.2, max: 2, n: 3 });
  assert.deepEqual(row.gregor, { min: 90, median: 100, max: 120, n: 3 });
  assert.equal(row.target, 1);
  const memory = rows.find((r) => r.workload === 'memory')!;
  assert.equal(memory.ratio.median, 0.1);
  assert.equal(memory.ratio.n, 1);
});

test('targets from the issue', () => {
  assert.equal(targetFor('fetch', 'anything'), 1);
  assert.equal(targetFor('latency', 'p99, 1 KiB at 5,000/s'), 1);
  assert.equal(targetFor('latency', 'p99.9, 1 KiB at 5,000/s'), undefined);
  assert.equal(targetFor('startup', 'empty data dir'), 0.15);
  assert.equal(targetFor('memory', 'peak during produce'), 0.3);
  assert.equal(targetFor('scale', 'Metadata, 10,000 partitions'), undefined);
  assert.equal(meetsTarget({ median: 0.9, target: 1, better: 'higher' }), false);
  assert.equal(meetsTarget({ median: 0.1, target: 0.15, better: 'lower' }), true);
  assert.equal(meetsTarget({ median: 1.1, better: 'lower' }), false);
});

test('markdown: target table, a chart and a table per workload, failures listed', () => {
  const file = results([produce('gregor', 0, 40), produce('kafka', 0, 50), idle('gregor', 0, 40), idle('kafka', 0, 400)]);
  const text = resultsMarkdown(file, summarise(file), (w) => `bench/charts/${w}.svg`);
  assert.ok(text.startsWith(RESULTS_START) && text.endsWith(RESULTS_END));
  assert.match(text, /\| produce-java \| 1 KiB acks=1 none 1p \| 0\.800× \| NOT met \(≥ 1×\) \|/);
  assert.match(text, /\| memory \| idle \| 0\.100× \| met \(≤ 0\.15×\) \|/);
  assert.match(text, /!\[memory\]\(bench\/charts\/memory\.svg\)/);
  assert.match(text, /run 1, gregor: fetch 100 MB: kafka-consumer-perf-test: exit 1/);
});

test('splicing keeps the hand-written text around the generated section', () => {
  const before = `# Benchmarks\n\nintro\n\n${RESULTS_START}\nold\n${RESULTS_END}\n\n## Profiles\nnotes\n`;
  const after = spliceResults(before, `${RESULTS_START}\nnew\n${RESULTS_END}`);
  assert.equal(after, `# Benchmarks\n\nintro\n\n${RESULTS_START}\nnew\n${RESULTS_END}\n\n## Profiles\nnotes\n`);
  assert.equal(spliceResults('# B\n', 'S'), '# B\n\nS\n');
});

test('chart: one bar per case, labels escaped, a missing figure says so', () => {
  const svg = ratioChart('t <&>', [
    { label: 'a < b', min: 0.5, median: 0.8, max: 1.1, better: 'higher', target: 1 },
    { label: 'none', min: NaN, median: NaN, max: NaN, better: 'lower' },
  ]);
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert.match(svg, /t &lt;&amp;&gt;/);
  assert.match(svg, />a &lt; b</);
  assert.equal((svg.match(/fill="#c0504d"/g) ?? []).length, 1); // 0.8 is short of ≥ 1
  assert.match(svg, /no figure/);
  const rows = summarise(results([idle('gregor', 0, 40), idle('kafka', 0, 400)]));
  assert.equal((chartFor('memory', rows).match(/fill="#3a8f5c"/g) ?? []).length, 1);
});
