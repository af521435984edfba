// ShareFetch and ShareAcknowledge under Kafka's StandardAuthorizer, as KafkaApis checks them: READ on the group, else
// the whole request is GROUP_AUTHORIZATION_FAILED; READ on each topic, else its partitions are
// TOPIC_AUTHORIZATION_FAILED (not read, not acknowledged). The client is User:ANONYMOUS on PLAINTEXT with
// allow.everyone.if.no.acl.found, so it may create the DENY ACLs itself. Kafka 4.3.1 answered the same (set
// SHARE_ACL_REFERENCE=host:port to run this file against a reference broker configured so).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { createAclsApi } from '../../../src/protocol/generated/create-acls.js';
import { createCreatableTopic, createCreateTopicsRequest, createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { createFetchPartition, createShareFetchRequest, shareFetchApi } from '../../../src/protocol/generated/share-fetch.js';
import { createShareAcknowledgeRequest, shareAcknowledgeApi } from '../../../src/protocol/generated/share-acknowledge.js';
import { AclOperation, PatternType, ResourceType } from '../../../src/security/authorizer/acl.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

const DENY = 2;

test('ShareFetch and ShareAcknowledge need READ on the group and on each topic', async () => {
  const reference = process.env['SHARE_ACL_REFERENCE'];
  const broker = reference === undefined ? await startTestBroker({
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'allow.everyone.if.no.acl.found': 'true',
  }) : undefined;
  const client = reference === undefined ? await RawClient.connect(broker!.port) : await RawClient.connect(Number(reference.split(':')[1]), reference.split(':')[0]);
  // A new topic and group each run, so that the file runs again against the same reference broker.
  const topic = `secret-${Date.now()}`;
  const group = `g-${Date.now()}`;
  try {
    const created = await roundTrip(client, createTopicsApi, 7, { ...createCreateTopicsRequest(), timeoutMs: 30_000, topics: [{ ...createCreatableTopic(), name: topic, numPartitions: 1, replicationFactor: 1 }] });
    const topicId = created.topics[0]!.topicId;
    const deny = async (resourceType: number, resourceName: string) => {
      const r = await roundTrip(client, createAclsApi, 3, { creations: [{ resourceType, resourceName, resourcePatternType: PatternType.LITERAL, principal: 'User:ANONYMOUS', host: '*', operation: AclOperation.READ, permissionType: DENY }] });
      assert.deepEqual(r.results.map((x) => x.errorCode), [ErrorCode.NONE]);
      // Kafka applies an ACL once its metadata log has it, a moment later; gregor at once.
      if (reference !== undefined) await new Promise((resolve) => setTimeout(resolve, 2000));
    };
    const partitions = [{ ...createFetchPartition(), partitionIndex: 0 }];
    const shareFetch = (epoch: number) => roundTrip(client, shareFetchApi, 2, {
      ...createShareFetchRequest(), groupId: group, memberId: 'AAAAAAAAAAAAAAAAAAAAAQ', shareSessionEpoch: epoch, maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, maxRecords: 10, batchSize: 10,
      topics: [{ topicId, partitions }],
    });
    const acknowledge = (epoch: number) => roundTrip(client, shareAcknowledgeApi, 2, {
      ...createShareAcknowledgeRequest(), groupId: group, memberId: 'AAAAAAAAAAAAAAAAAAAAAQ', shareSessionEpoch: epoch,
      topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 0n, lastOffset: 0n, acknowledgeTypes: [1] }] }] }],
    });

    await deny(ResourceType.TOPIC, topic);
    // The opening fetch and an incremental one both answer the partition refused.
    for (const epoch of [0, 1]) {
      const fetched = await shareFetch(epoch);
      assert.deepEqual([fetched.errorCode, fetched.responses.map((t) => t.partitions.map((p) => [p.partitionIndex, p.errorCode, p.acquiredRecords.length]))],
        [ErrorCode.NONE, [[[0, ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0]]]]);
    }
    const acked = await acknowledge(2);
    assert.deepEqual([acked.errorCode, acked.responses.map((t) => t.partitions.map((p) => p.errorCode))], [ErrorCode.NONE, [[ErrorCode.TOPIC_AUTHORIZATION_FAILED]]]);

    await deny(ResourceType.GROUP, group);
    assert.equal((await shareFetch(3)).errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
    assert.equal((await acknowledge(3)).errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  } finally {
    await client.close();
    await broker?.close();
  }
});
