// kafka-transactions list (Apache Kafka 4.3.1's tool, ListTransactions v2) against an in-process gregor: the output
// must read as it did against the reference Kafka 4.3.1 broker (compat-tests/reference) holding the same two
// transactional ids, each initialised by InitProducerId and never used.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../src/protocol/generated/find-coordinator.js';
import { createInitProducerIdRequest, initProducerIdApi } from '../../src/protocol/generated/init-producer-id.js';
import { roundTrip, startTestBroker } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';
import { installJavaTools, runJavaTool } from './java-tools.js';

const HEADER = 'TransactionalId\tCoordinator\tProducerId\tTransactionState\t';
// The first two producer ids a fresh broker hands out (the reference had given 0 to an idempotent producer first).
const TX_A = 'tx-a           \t1          \t0         \tEmpty           \t';
const TX_B1 = 'tx-b1          \t1          \t1         \tEmpty           \t';

let broker: Awaited<ReturnType<typeof startTestBroker>>;

before(async () => {
  installJavaTools();
  broker = await startTestBroker({ 'node.id': '1', 'transaction.state.log.num.partitions': '1' });
  const client = await RawClient.connect(broker.port);
  try {
    await roundTrip(client, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType: 1, coordinatorKeys: ['tx-a'] });
    for (const transactionalId of ['tx-a', 'tx-b1']) {
      const init = await roundTrip(client, initProducerIdApi, 5, { ...createInitProducerIdRequest(), transactionalId, transactionTimeoutMs: 60000 });
      assert.equal(init.errorCode, ErrorCode.NONE);
    }
  } finally {
    await client.close();
  }
});

after(async () => {
  await broker?.close();
});

test('kafka-transactions list, with --transactional-id-pattern and --duration-filter, prints what it prints against Kafka 4.3.1', { timeout: 300_000 }, async () => {
  const list = async (...args: string[]) => {
    const run = await runJavaTool('kafka-transactions', ['--bootstrap-server', `127.0.0.1:${broker.port}`, 'list', ...args]);
    const lines = (run.stdout + run.stderr).split('\n').filter((l) => l !== '' && !/^\s*at /.test(l)).map((l) => l.replace(/^\[[^\]]+\] /, ''));
    return [run.code, lines];
  };
  assert.deepEqual(await list('--transactional-id-pattern', 'tx-.'), [0, [HEADER, TX_A]]);
  assert.deepEqual(await list('--duration-filter', '0'), [0, [HEADER, TX_A, TX_B1]]);
  assert.deepEqual(await list('--transactional-id-pattern', '('), [1, [
    'ERROR [AdminClient clientId=adminclient-1] The `ListTransactions` request sent to broker 1 failed because of an unexpected error INVALID_REGULAR_EXPRESSION (org.apache.kafka.clients.admin.internals.ListTransactionsHandler)',
    'Failed to list transactions: ListTransactions request sent to broker 1 failed with an unexpected exception. Enable debug logging for additional detail.',
  ]]);
});
