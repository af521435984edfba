// UpdateFeatures, DescribeQuorum, AddRaftVoter, RemoveRaftVoter and UnregisterBroker on the wire, every version,
// asserted against what Apache Kafka 4.3.1 answered the same requests with on a single combined node.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { addRaftVoterApi } from '../../../src/protocol/generated/add-raft-voter.js';
import { apiVersionsApi } from '../../../src/protocol/generated/api-versions.js';
import { describeConfigsApi } from '../../../src/protocol/generated/describe-configs.js';
import { describeQuorumApi } from '../../../src/protocol/generated/describe-quorum.js';
import { incrementalAlterConfigsApi } from '../../../src/protocol/generated/incremental-alter-configs.js';
import { removeRaftVoterApi } from '../../../src/protocol/generated/remove-raft-voter.js';
import { unregisterBrokerApi } from '../../../src/protocol/generated/unregister-broker.js';
import { updateFeaturesApi, type FeatureUpdateKey } from '../../../src/protocol/generated/update-features.js';
import { ZERO_UUID } from '../../../src/protocol/uuid.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

type Broker = Awaited<ReturnType<typeof startTestBroker>>;

async function withBroker(run: (client: RawClient, broker: Broker) => Promise<void>, settings: Record<string, string> = {}): Promise<void> {
  const broker = await startTestBroker(settings);
  const client = await RawClient.connect(broker.port);
  try {
    await run(client, broker);
  } finally {
    await client.close();
    await broker.close();
  }
}

function update(feature: string, maxVersionLevel: number, upgradeType = 1): FeatureUpdateKey {
  return { feature, maxVersionLevel, upgradeType, allowDowngrade: false };
}

const PREFIX = 'The update failed for all features since the following feature had an error: ';

test('UpdateFeatures v0-v2: success has per-feature results (message "NONE") up to v1 only; a refusal has none', async () => {
  await withBroker(async (client) => {
    for (let version = 0; version <= 2; version++) {
      const ok = await roundTrip(client, updateFeaturesApi, version, {
        timeoutMs: 60000, validateOnly: version >= 1, featureUpdates: [update('metadata.version', 30), update('kraft.version', 0)],
      });
      assert.deepEqual(ok, {
        throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null,
        results: version <= 1
          ? [{ feature: 'metadata.version', errorCode: 0, errorMessage: 'NONE' }, { feature: 'kraft.version', errorCode: 0, errorMessage: 'NONE' }]
          : [],
      }, `v${version}`);
      const refused = await roundTrip(client, updateFeaturesApi, version, {
        timeoutMs: 60000, validateOnly: version >= 1, featureUpdates: [update('foo.bar', 1)],
      });
      assert.deepEqual(refused, {
        throttleTimeMs: 0, errorCode: ErrorCode.INVALID_UPDATE_VERSION,
        errorMessage: `${PREFIX}Invalid update version 1 for feature foo.bar. Local controller 1 does not support this feature.`,
        results: [],
      }, `v${version}`);
    }
    // v0's allowDowngrade is not what Kafka's controller reads: a downgrade at v0 is refused.
    const v0 = await roundTrip(client, updateFeaturesApi, 0, {
      timeoutMs: 60000, validateOnly: false, featureUpdates: [{ ...update('eligible.leader.replicas.version', 0), allowDowngrade: true }],
    });
    assert.equal(v0.errorMessage, `${PREFIX}Invalid update version 0 for feature eligible.leader.replicas.version. ` +
      "Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade.");
  });
});

test('UpdateFeatures: validateOnly changes nothing; a change shows in ApiVersions with the next epoch', async () => {
  await withBroker(async (client) => {
    const finalized = async () => {
      const r = await roundTrip(client, apiVersionsApi, 4, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
      return { epoch: r.finalizedFeaturesEpoch, names: r.finalizedFeatures.map((f) => `${f.name}=${f.maxVersionLevel}`) };
    };
    assert.deepEqual(await finalized(), { epoch: 1n, names: ['eligible.leader.replicas.version=1', 'group.version=1', 'metadata.version=30', 'share.version=1', 'streams.version=1', 'transaction.version=2'] });
    const downgrade = { timeoutMs: 60000, featureUpdates: [update('eligible.leader.replicas.version', 0, 2)] };
    assert.equal((await roundTrip(client, updateFeaturesApi, 2, { ...downgrade, validateOnly: true })).errorCode, ErrorCode.NONE);
    assert.deepEqual(await finalized(), { epoch: 1n, names: ['eligible.leader.replicas.version=1', 'group.version=1', 'metadata.version=30', 'share.version=1', 'streams.version=1', 'transaction.version=2'] });
    assert.equal((await roundTrip(client, updateFeaturesApi, 2, { ...downgrade, validateOnly: false })).errorCode, ErrorCode.NONE);
    assert.deepEqual(await finalized(), { epoch: 2n, names: ['group.version=1', 'metadata.version=30', 'share.version=1', 'streams.version=1', 'transaction.version=2'] });
  });
});

test('eligible.leader.replicas.version gates min.insync.replicas\' config rules, and turning it on writes the cluster-level one', async () => {
  await withBroker(async (client) => {
    const alter = (resourceName: string, configOperation: number, value: string | null) => roundTrip(client, incrementalAlterConfigsApi, 1, {
      validateOnly: false,
      resources: [{ resourceType: 4, resourceName, configs: [{ name: 'min.insync.replicas', configOperation, value }] }],
    });
    const errorOf = async (resourceName: string, op: number, value: string | null) => {
      const result = (await alter(resourceName, op, value)).responses[0]!;
      return [result.errorCode, result.errorMessage];
    };
    const nodeId = '1';
    assert.deepEqual(await errorOf(nodeId, 0, '1'), [ErrorCode.INVALID_CONFIG, 'Broker-level min.insync.replicas cannot be altered while ELR is enabled.']);
    assert.deepEqual(await errorOf('', 1, null), [ErrorCode.INVALID_CONFIG, 'Cluster-level min.insync.replicas cannot be removed while ELR is enabled.']);
    // Off: both are allowed, as Kafka allows them.
    await roundTrip(client, updateFeaturesApi, 2, { timeoutMs: 60000, validateOnly: false, featureUpdates: [update('eligible.leader.replicas.version', 0, 2)] });
    assert.deepEqual(await errorOf('', 1, null), [ErrorCode.NONE, null]);
    assert.deepEqual(await errorOf(nodeId, 0, '1'), [ErrorCode.NONE, null]);
    const dynamicMinIsr = async (resourceName: string) => {
      const r = await roundTrip(client, describeConfigsApi, 4, {
        resources: [{ resourceType: 4, resourceName, configurationKeys: ['min.insync.replicas'] }], includeSynonyms: false, includeDocumentation: false,
      });
      return r.results[0]!.configs.map((c) => [c.value, c.configSource]);
    };
    // DYNAMIC_BROKER_CONFIG (2) at the broker level, the cluster level gone (DescribeConfigs of '' lists only what is set).
    assert.deepEqual(await dynamicMinIsr(nodeId), [['1', 2]]);
    assert.deepEqual(await dynamicMinIsr(''), []);
    // On again: the cluster-level value comes back (the static one) and the broker-level one goes.
    await roundTrip(client, updateFeaturesApi, 2, { timeoutMs: 60000, validateOnly: false, featureUpdates: [update('eligible.leader.replicas.version', 1)] });
    // DYNAMIC_DEFAULT_BROKER_CONFIG (3) at both levels.
    assert.deepEqual(await dynamicMinIsr(nodeId), [['1', 3]]);
    assert.deepEqual(await dynamicMinIsr(''), [['1', 3]]);
    assert.deepEqual(await errorOf(nodeId, 1, null), [ErrorCode.INVALID_CONFIG, 'Broker-level min.insync.replicas cannot be altered while ELR is enabled.']);
    assert.deepEqual(await errorOf('', 0, '1'), [ErrorCode.NONE, null]);
  });
});

test('DescribeQuorum v0-v2: itself as leader and only voter of __cluster_metadata-0; v2 names its endpoint', async () => {
  await withBroker(async (client, broker) => {
    const request = { topics: [{ topicName: '__cluster_metadata', partitions: [{ partitionIndex: 0 }] }] };
    for (let version = 0; version <= 2; version++) {
      const r = await roundTrip(client, describeQuorumApi, version, request);
      assert.equal(r.errorCode, ErrorCode.NONE);
      const partition = r.topics[0]!.partitions[0]!;
      assert.equal(r.topics[0]!.topicName, '__cluster_metadata');
      assert.deepEqual([partition.partitionIndex, partition.errorCode, partition.leaderId, partition.leaderEpoch, partition.highWatermark], [0, 0, 1, 1, 1n]);
      assert.equal(partition.observers.length, 0);
      const [voter] = partition.currentVoters;
      assert.deepEqual([partition.currentVoters.length, voter!.replicaId, voter!.replicaDirectoryId, voter!.logEndOffset], [1, 1, ZERO_UUID, 1n]);
      // A leader's own fetch and caught-up times are now (v1+); v0 does not carry them.
      if (version === 0) assert.equal(voter!.lastFetchTimestamp, -1n);
      else assert.ok(voter!.lastFetchTimestamp > 0n && voter!.lastCaughtUpTimestamp === voter!.lastFetchTimestamp);
      assert.deepEqual(r.nodes, version >= 2 ? [{ nodeId: 1, listeners: [{ name: 'PLAINTEXT', host: '127.0.0.1', port: broker.port }] }] : []);
    }
  });
});

test('DescribeQuorum: anything but __cluster_metadata-0 alone gets UNKNOWN_TOPIC_OR_PARTITION on every partition asked', async () => {
  await withBroker(async (client) => {
    const unknown = (_topicName: string, partitionIndex: number) => ({
      partitionIndex, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: 'This server does not host this topic-partition.',
      leaderId: 0, leaderEpoch: 0, highWatermark: 0n, currentVoters: [], observers: [],
    });
    const ask = (topicName: string, partitions: number[]) =>
      roundTrip(client, describeQuorumApi, 2, { topics: [{ topicName, partitions: partitions.map((partitionIndex) => ({ partitionIndex })) }] });
    assert.deepEqual((await ask('foo', [0])).topics, [{ topicName: 'foo', partitions: [unknown('foo', 0)] }]);
    assert.deepEqual((await ask('__cluster_metadata', [1])).topics, [{ topicName: '__cluster_metadata', partitions: [unknown('', 1)] }]);
    assert.deepEqual((await ask('__cluster_metadata', [0, 0])).topics,
      [{ topicName: '__cluster_metadata', partitions: [unknown('', 0), unknown('', 0)] }]);
    assert.deepEqual(await roundTrip(client, describeQuorumApi, 2, { topics: [] }), { errorCode: 0, errorMessage: '', topics: [], nodes: [] });
  });
});

test('AddRaftVoter v0-v1 and RemoveRaftVoter v0: Kafka\'s answers with kraft.version 0', async () => {
  await withBroker(async (client, broker) => {
    const voter = { voterId: 2, voterDirectoryId: 'AAAAAAAAAAAAAAAAAAAAAQ' };
    const listeners = [{ name: 'CONTROLLER', host: '127.0.0.1', port: 1 }];
    for (let version = 0; version <= 1; version++) {
      const add = (r: object) => roundTrip(client, addRaftVoterApi, version, { clusterId: broker.clusterId, timeoutMs: 30000, ackWhenCommitted: true, ...voter, listeners, ...r });
      assert.deepEqual(await add({}), {
        throttleTimeMs: 0, errorCode: ErrorCode.UNSUPPORTED_VERSION, errorMessage: "Cluster doesn't support adding voter because the kraft.version feature is 0",
      });
      assert.deepEqual(await add({ clusterId: 'wrong' }), {
        throttleTimeMs: 0, errorCode: ErrorCode.INCONSISTENT_CLUSTER_ID, errorMessage: `The given id "wrong" doesn't match the cluster id "${broker.clusterId}"`,
      });
      assert.deepEqual(await add({ clusterId: null, voterDirectoryId: ZERO_UUID }), {
        throttleTimeMs: 0, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "Add voter request didn't include a valid voter",
      });
      assert.deepEqual(await add({ voterId: -1 }), {
        throttleTimeMs: 0, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "Add voter request didn't include a valid voter",
      });
      assert.deepEqual(await add({ listeners: [] }), {
        throttleTimeMs: 0, errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: "Add voter request didn't include the endpoint (Endpoints(endpoints={})) for the default listener ListenerName(PLAINTEXT)",
      });
    }
    const remove = (r: object) => roundTrip(client, removeRaftVoterApi, 0, { clusterId: broker.clusterId, voterId: 1, voterDirectoryId: 'AAAAAAAAAAAAAAAAAAAAAQ', ...r });
    assert.deepEqual(await remove({}), {
      throttleTimeMs: 0, errorCode: ErrorCode.UNSUPPORTED_VERSION, errorMessage: "Cluster doesn't support removing voter because the kraft.version feature is 0",
    });
    assert.deepEqual(await remove({ clusterId: 'x' }), {
      throttleTimeMs: 0, errorCode: ErrorCode.INCONSISTENT_CLUSTER_ID, errorMessage: `The given id "x" doesn't match the cluster id "${broker.clusterId}"`,
    });
    assert.deepEqual(await remove({ clusterId: null, voterDirectoryId: ZERO_UUID }), {
      throttleTimeMs: 0, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "Remove voter request didn't include a valid voter",
    });
  });
});

test('UnregisterBroker v0: another id is not registered; its own id is answered NONE', async () => {
  await withBroker(async (client) => {
    for (const brokerId of [5, -1]) {
      assert.deepEqual(await roundTrip(client, unregisterBrokerApi, 0, { brokerId }), {
        throttleTimeMs: 0, errorCode: ErrorCode.BROKER_ID_NOT_REGISTERED, errorMessage: `Broker ID ${brokerId} is not currently registered`,
      });
    }
    assert.deepEqual(await roundTrip(client, unregisterBrokerApi, 0, { brokerId: 1 }), { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: '' });
  });
});

test('file engine: a feature change outlives a restart, epoch included', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-features-broker-'));
  const settings = { 'gregor.log.engine': 'file', 'log.dirs': dir };
  try {
    await withBroker(async (client) => {
      await roundTrip(client, updateFeaturesApi, 2, { timeoutMs: 60000, validateOnly: false, featureUpdates: [update('eligible.leader.replicas.version', 0, 3)] });
    }, settings);
    await withBroker(async (client) => {
      const r = await roundTrip(client, apiVersionsApi, 4, { clientSoftwareName: 't', clientSoftwareVersion: '1' });
      assert.deepEqual([r.finalizedFeaturesEpoch, r.finalizedFeatures.map((f) => f.name)], [2n, ['group.version', 'metadata.version', 'share.version', 'streams.version', 'transaction.version']]);
    }, settings);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
