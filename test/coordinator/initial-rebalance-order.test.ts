// A new group's first join at group.initial.rebalance.delay.ms=0, over real sockets: the 0 ms join timer
// completes the join phase only after the requests already received, as in Kafka, where the timer's expiry is a
// write event queued behind the events already in the coordinator's queue (CoordinatorTimerImpl).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createJoinGroupRequest, joinGroupApi, type JoinGroupRequest } from '../../src/protocol/generated/join-group.js';
import { createFindCoordinatorRequest, findCoordinatorApi } from '../../src/protocol/generated/find-coordinator.js';
import type { Handler } from '../../src/server/handler.js';
import { handlers as registry } from '../../src/server/handlers/index.js';
import { joinGroupHandler } from '../../src/server/handlers/11-join-group.js';
import { decodeResponse, encodeRequest, roundTrip, startTestBroker } from '../server/broker-harness.js';
import { RawClient } from '../server/raw-client.js';

const staticJoin = (groupInstanceId: string): JoinGroupRequest => ({
  ...createJoinGroupRequest(),
  groupId: 'g',
  groupInstanceId,
  sessionTimeoutMs: 10000,
  rebalanceTimeoutMs: 30000,
  protocolType: 'consumer',
  protocols: [{ name: 'range', metadata: Buffer.from('m') }],
});

/** Blocks the event loop (synchronously) for `ms`: what a busy broker does between two turns. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('delay 0: a JoinGroup that arrived before the new group\'s 0 ms join timer fell due joins generation 1 with the first member', async () => {
  let b: RawClient | undefined;
  // Right after the coordinator took a's join (and armed the 0 ms timer), b's JoinGroup reaches the socket and
  // the broker stays busy past the timer's due time: both are then waiting when the event loop turns.
  const observed: Handler = {
    ...joinGroupHandler,
    handle(ctx, request, version) {
      const response = joinGroupHandler.handle(ctx, request, version);
      if ((request as JoinGroupRequest).groupInstanceId === 'a') {
        b!.send(encodeRequest(joinGroupApi, 7, staticJoin('b'), 2));
        busy(20);
      }
      return response;
    },
  };
  const broker = await startTestBroker({ 'group.initial.rebalance.delay.ms': '0' }, { handlers: [...registry.filter((h) => h.api.apiKey !== joinGroupApi.apiKey), observed] });
  const a = await RawClient.connect(broker.port);
  b = await RawClient.connect(broker.port);
  try {
    await roundTrip(a, findCoordinatorApi, 3, { ...createFindCoordinatorRequest(), key: 'g' });
    a.send(encodeRequest(joinGroupApi, 7, staticJoin('a'), 1));
    const ra = decodeResponse(joinGroupApi, 7, await a.read()).response;
    assert.deepEqual([ra.errorCode, ra.generationId], [0, 1]);
    assert.deepEqual(ra.members.map((m) => m.groupInstanceId).sort(), ['a', 'b'], 'the leader is given both members');
    const rb = decodeResponse(joinGroupApi, 7, await b.read()).response;
    assert.deepEqual([rb.errorCode, rb.generationId, rb.leader], [0, 1, ra.memberId]);
  } finally {
    await a.close();
    await b.close();
    await broker.close();
  }
});
