// Apache Kafka's Java client 4.3.1 as a transactional producer (commit 3, abort 2, commit 1, each with its
// group offset sent) and read_committed / read_uncommitted consumers (test/e2e/java/TransactionalRuns.java),
// with transaction.version 2 (Kafka 4.3.1's default: the client uses transactions v2, Produce v12 and EndTxn v5)
// and 0 (set in-process through BrokerOptions.features: AddPartitionsToTxn, EndTxn v4). Either way the consumer
// sees exactly the committed records, the log holds the aborted ones too, and the last committed offset applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Features } from '../../src/broker/features.js';
import { startTestBroker } from '../server/broker-harness.js';

/** kafka-clients 4.3.1 and its compression libraries, as the reference install puts them (installed before any test runs). */
const CLIENT_LIBS = 'compat-tests/.cache/kafka-4.3.1/libs';
const PROGRAM = 'test/e2e/java/TransactionalRuns.java';
const COMMITTED_TRANSACTIONS = [0, 1, 2, 5];

function run(bootstrap: string, level: number): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn('java', ['-cp', `${CLIENT_LIBS}/*`, PROGRAM, bootstrap, 'txn-java', `tx-java-${level}`, 'txn-java-group'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, lines: out.split('\n').filter((l) => l !== '') }));
  });
}

for (const level of [2, 0]) {
  test(`Java 4.3.1 transactional producer at transaction.version ${level}: read_committed sees exactly the committed records`, async () => {
    const features = new Features();
    features.apply([{ name: 'transaction.version', level }]);
    const broker = await startTestBroker({}, { features });
    try {
      const { code, lines } = await run(`127.0.0.1:${broker.port}`, level);
      assert.equal(code, 0, lines.join('\n'));
      assert.deepEqual(lines.filter((l) => l.startsWith('TV2 ')), [`TV2 ${level >= 2}`]);
      const committed = lines.filter((l) => l.startsWith('COMMITTED ')).map((l) => l.slice('COMMITTED '.length));
      // Per partition in log order: partition 0 holds records 0 and 2 of each transaction, partition 1 records 1 and 3.
      const expected = (partition: number): string[] => COMMITTED_TRANSACTIONS.flatMap((i) => [`t${i}-r${partition}`, `t${i}-r${partition + 2}`]);
      assert.deepEqual(committed.filter((v) => /-r[02]$/.test(v)), expected(0));
      assert.deepEqual(committed.filter((v) => /-r[13]$/.test(v)), expected(1));
      assert.equal(committed.length, 16);
      assert.ok(lines.includes('ALL 24'), 'the aborted records are in the log');
      assert.ok(lines.includes('GROUP_OFFSET 6'), 'the last committed transaction\'s offset');
    } finally {
      await broker.close();
    }
  });
}
