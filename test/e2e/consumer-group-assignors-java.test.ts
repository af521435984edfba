// gregor's KIP-848 server-side assignors against Kafka 4.3.1's own (UniformAssignor, RangeAssignor, run by
// test/e2e/java/ConsumerGroupAssignors.java from the group-coordinator jar): the same generated cases, each run's
// assignment identical, down to the order topics and partitions are listed in (the order Kafka's records carry, which
// decides the next run's result where Java hash-table order breaks ties).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignorCases, casesScript, runCases } from '../coordinator/consumer-assignor-cases.js';
import { installJavaTools, runJavaProgramOk } from './java-tools.js';

/** Output lines grouped by run ("run <case> <n>" header). */
function byRun(lines: readonly string[]): Map<string, string[]> {
  const runs = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of lines) {
    if (line.startsWith('run ')) {
      current = [];
      runs.set(line.slice(4), current);
    } else current.push(line);
  }
  return runs;
}

test('uniform and range assign as Kafka 4.3.1 does: joins, leaves, new topics and partitions, mixed subscriptions, static members, errors', { timeout: 300_000 }, async () => {
  installJavaTools();
  const cases = assignorCases(400);
  const printed = await runJavaProgramOk('test/e2e/java/ConsumerGroupAssignors.java', [], casesScript(cases));
  const kafka = byRun(printed.split('\n').filter((l) => l !== '' && !/^\[|SLF4J/.test(l)));
  const gregor = byRun(runCases(cases));
  assert.equal(gregor.size, cases.reduce((n, c) => n + c.runs.length, 0));
  assert.deepEqual([...kafka.keys()], [...gregor.keys()]);
  for (const [run, lines] of gregor) assert.deepEqual(lines, kafka.get(run), `run ${run}`);
});
