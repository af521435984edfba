// ListTransactions over a socket, with the answers Kafka 4.3.1 gives (compat-tests/reference, the same ids).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../../src/protocol/generated/find-coordinator.js';
import { createInitProducerIdRequest, initProducerIdApi } from '../../../src/protocol/generated/init-producer-id.js';
import { createListTransactionsRequest, listTransactionsApi, type ListTransactionsRequest } from '../../../src/protocol/generated/list-transactions.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

test('v2 filters by a transactional id pattern that must match the whole id (KIP-1152); a bad one is INVALID_REGULAR_EXPRESSION', async () => {
  const broker = await startTestBroker({ 'transaction.state.log.num.partitions': '1' });
  const client = await RawClient.connect(broker.port);
  try {
    const found = await roundTrip(client, findCoordinatorApi, 4, { ...createFindCoordinatorRequest(), keyType: 1, coordinatorKeys: ['tx-a'] });
    assert.equal(found.coordinators[0]!.errorCode, ErrorCode.NONE);
    for (const transactionalId of ['tx-a', 'tx-b1']) {
      const init = await roundTrip(client, initProducerIdApi, 5, { ...createInitProducerIdRequest(), transactionalId, transactionTimeoutMs: 60000 });
      assert.equal(init.errorCode, ErrorCode.NONE);
    }
    const list = async (version: number, filters: Partial<ListTransactionsRequest>) => {
      const response = await roundTrip(client, listTransactionsApi, version, { ...createListTransactionsRequest(), ...filters });
      return [response.errorCode, response.unknownStateFilters, response.transactionStates.map((t) => [t.transactionalId, t.transactionState]).sort()];
    };
    const both = [['tx-a', 'Empty'], ['tx-b1', 'Empty']];
    assert.deepEqual(await list(2, { transactionalIdPattern: null }), [ErrorCode.NONE, [], both]);
    assert.deepEqual(await list(2, { transactionalIdPattern: '' }), [ErrorCode.NONE, [], both]);
    assert.deepEqual(await list(2, { transactionalIdPattern: 'tx-.' }), [ErrorCode.NONE, [], [['tx-a', 'Empty']]]);
    assert.deepEqual(await list(2, { transactionalIdPattern: 'tx' }), [ErrorCode.NONE, [], []]);
    assert.deepEqual(await list(2, { transactionalIdPattern: '(?i)TX-B\\d' }), [ErrorCode.NONE, [], [['tx-b1', 'Empty']]]);
    // The error answer carries nothing else, not even the unknown state filters.
    assert.deepEqual(await list(2, { transactionalIdPattern: '(', stateFilters: ['Bogus'] }), [ErrorCode.INVALID_REGULAR_EXPRESSION, [], []]);
    assert.deepEqual(await list(2, { transactionalIdPattern: '(?=t)tx-a' }), [ErrorCode.INVALID_REGULAR_EXPRESSION, [], []]);
    // v1+ duration filter: ids without a transaction (start -1) are older than any duration, as in Kafka 4.3.1.
    for (const durationFilter of [0n, 100_000_000n]) assert.deepEqual(await list(1, { durationFilter }), [ErrorCode.NONE, [], both]);
    assert.deepEqual(await list(0, {}), [ErrorCode.NONE, [], both]);
  } finally {
    await client.close();
    await broker.close();
  }
});
