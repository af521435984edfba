// DescribeGroups over a socket, each version as Kafka 4.3.1 answers it (compat-tests/reference, 19210).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { describeGroupsApi } from '../../../src/protocol/generated/describe-groups.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

test('an unknown group (the empty id too) is Dead; v6 adds GROUP_ID_NOT_FOUND and its message (KIP-1043)', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    for (let version = 0; version <= 6; version++) {
      const response = await roundTrip(client, describeGroupsApi, version, { groups: ['missing', ''], includeAuthorizedOperations: false });
      const expected = (groupId: string) => version >= 6
        ? [ErrorCode.GROUP_ID_NOT_FOUND, `Group ${groupId} not found.`, groupId, 'Dead', '', '', []]
        : [ErrorCode.NONE, null, groupId, 'Dead', '', '', []];
      assert.deepEqual(
        response.groups.map((g) => [g.errorCode, g.errorMessage, g.groupId, g.groupState, g.protocolType, g.protocolData, g.members]),
        [expected('missing'), expected('')],
        `v${version}`,
      );
    }
  } finally {
    await client.close();
    await broker.close();
  }
});
