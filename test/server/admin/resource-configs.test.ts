// GROUP and CLIENT_METRICS config resources and ListConfigResources over the wire, each answer as Kafka 4.3.1's
// broker gave it to the same requests (captured against compat-tests/reference), and kept across a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig, resolveGroupConfig } from '../../../src/config/index.js';
import { alterConfigsApi } from '../../../src/protocol/generated/alter-configs.js';
import { createTopicsApi } from '../../../src/protocol/generated/create-topics.js';
import { deleteGroupsApi } from '../../../src/protocol/generated/delete-groups.js';
import { createOffsetCommitRequest, offsetCommitApi } from '../../../src/protocol/generated/offset-commit.js';
import { ZERO_UUID } from '../../../src/protocol/uuid.js';
import { describeConfigsApi, type DescribeConfigsResult } from '../../../src/protocol/generated/describe-configs.js';
import { incrementalAlterConfigsApi } from '../../../src/protocol/generated/incremental-alter-configs.js';
import { listConfigResourcesApi } from '../../../src/protocol/generated/list-config-resources.js';
import { ResourceConfigs } from '../../../src/server/admin/resource-configs.js';
import { RawClient } from '../raw-client.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';

const GROUP = 32;
const CLIENT_METRICS = 16;
const SET = 0;
const DELETE = 1;
const APPEND = 2;

type Op = [name: string, value: string | null, op?: number];

async function incremental(client: RawClient, type: number, name: string, ops: Op[], validateOnly = false) {
  const { responses } = await roundTrip(client, incrementalAlterConfigsApi, 1, {
    resources: [{ resourceType: type, resourceName: name, configs: ops.map(([key, value, op]) => ({ name: key, configOperation: op ?? SET, value })) }],
    validateOnly,
  });
  return [responses[0]!.errorCode, responses[0]!.errorMessage];
}

async function describe(client: RawClient, type: number, name: string, keys: string[] | null = null, includeSynonyms = true): Promise<DescribeConfigsResult> {
  const { results } = await roundTrip(client, describeConfigsApi, 4, {
    resources: [{ resourceType: type, resourceName: name, configurationKeys: keys }], includeSynonyms, includeDocumentation: false,
  });
  return results[0]!;
}

/** name value source [synonym name=value@source...], one line per config. */
function lines(result: DescribeConfigsResult): string[] {
  return result.configs.map((c) => `${c.name} ${c.value} ${c.configSource} [${c.synonyms.map((s) => `${s.name}=${s.value}@${s.source}`).join(' ')}]`);
}

test('DescribeConfigs GROUP: any group, existing or not, gets the 17 group configs in Kafka\'s order with the broker synonyms', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    assert.deepEqual(lines(await describe(client, GROUP, 'nobody')), [
      'consumer.session.timeout.ms 45000 5 [group.consumer.session.timeout.ms=45000@5]',
      'consumer.assignment.interval.ms 1000 5 [group.consumer.assignment.interval.ms=1000@5]',
      'share.auto.offset.reset latest 5 [share.auto.offset.reset=latest@5]',
      'share.renew.acknowledge.enable true 5 [share.renew.acknowledge.enable=true@5]',
      'streams.initial.rebalance.delay.ms 3000 5 [group.streams.initial.rebalance.delay.ms=3000@5]',
      'share.session.timeout.ms 45000 5 [group.share.session.timeout.ms=45000@5]',
      'streams.assignment.interval.ms 1000 5 [group.streams.assignment.interval.ms=1000@5]',
      'share.heartbeat.interval.ms 5000 5 [group.share.heartbeat.interval.ms=5000@5]',
      'streams.heartbeat.interval.ms 5000 5 [group.streams.heartbeat.interval.ms=5000@5]',
      'share.delivery.count.limit 5 5 [group.share.delivery.count.limit=5@5]',
      'consumer.heartbeat.interval.ms 5000 5 [group.consumer.heartbeat.interval.ms=5000@5]',
      'share.record.lock.duration.ms 30000 5 [group.share.record.lock.duration.ms=30000@5]',
      'share.assignment.interval.ms 1000 5 [group.share.assignment.interval.ms=1000@5]',
      'share.isolation.level read_uncommitted 5 [share.isolation.level=read_uncommitted@5]',
      'streams.session.timeout.ms 45000 5 [group.streams.session.timeout.ms=45000@5]',
      'share.partition.max.record.locks 2000 5 [group.share.partition.max.record.locks=2000@5]',
      'streams.num.standby.replicas 0 5 [group.streams.num.standby.replicas=0@5]',
    ]);
    const types = (await describe(client, GROUP, 'nobody')).configs.map((c) => c.configType);
    assert.deepEqual(new Set(types), new Set([1, 2, 3]));
    const empty = await describe(client, GROUP, '');
    assert.deepEqual([empty.errorCode, empty.errorMessage, empty.configs], [42, 'Group name must not be empty', []]);
    // A broker's own setting is the synonym's value, and the group's default.
    const configured = await startTestBroker({ 'group.consumer.session.timeout.ms': '50000' });
    const other = await RawClient.connect(configured.port);
    assert.deepEqual(lines(await describe(other, GROUP, 'g', ['consumer.session.timeout.ms'])),
      ['consumer.session.timeout.ms 50000 4 [group.consumer.session.timeout.ms=50000@4 group.consumer.session.timeout.ms=45000@5]']);
    await other.close();
    await configured.close();
  } finally {
    await client.close();
    await broker.close();
  }
});

test('IncrementalAlterConfigs GROUP: Kafka\'s codes and messages for bad names, values and bounds; set, delete, validateOnly', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    const refused: [Op[], number, string][] = [
      [[['nope', '1']], 40, 'Unknown group config name: nope'],
      [[['consumer.session.timeout.ms', 'abc']], 40, 'Invalid value abc for configuration consumer.session.timeout.ms: Not a number of type INT'],
      [[['consumer.session.timeout.ms', '0']], 40, 'Invalid value 0 for configuration consumer.session.timeout.ms: Value must be at least 1'],
      [[['consumer.session.timeout.ms', '1000']], 40, 'consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms'],
      [[['consumer.session.timeout.ms', '5', APPEND]], 40, 'Can\'t APPEND to key consumer.session.timeout.ms because its type is not LIST.'],
      [[['share.auto.offset.reset', 'EARLIEST']], 40, 'Invalid value EARLIEST for configuration share.auto.offset.reset: Invalid value `EARLIEST` for ' +
        'configuration share.auto.offset.reset. The value must be either \'earliest\', \'latest\' or of the format \'by_duration:<PnDTnHnMn.nS>\'.'],
      [[['share.isolation.level', 'bogus']], 40, 'Invalid value bogus for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted'],
      [[['share.renew.acknowledge.enable', 'yes']], 40, 'Invalid value yes for configuration share.renew.acknowledge.enable: Expected value to be either true or false'],
      [[['share.delivery.count.limit', '11']], 40, 'share.delivery.count.limit must be less than or equal to group.share.max.delivery.count.limit'],
      [[['streams.num.standby.replicas', '3']], 40, 'streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas'],
      [[['consumer.heartbeat.interval.ms', '15000'], ['consumer.session.timeout.ms', '15000']], 40,
        'consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms'],
      [[['consumer.heartbeat.interval.ms', '15000'], ['consumer.session.timeout.ms', '45000'], ['consumer.session.timeout.ms', '45000']], 42,
        'Error due to duplicate config keys'],
    ];
    for (const [ops, code, message] of refused) assert.deepEqual(await incremental(client, GROUP, 'g', ops), [code, message], JSON.stringify(ops));
    assert.deepEqual(await incremental(client, GROUP, '', [['consumer.session.timeout.ms', '50000']]), [42, 'Default group resources are not allowed.']);

    assert.deepEqual(await incremental(client, GROUP, 'g', [['consumer.session.timeout.ms', '50000']], true), [0, null]);
    assert.deepEqual(lines(await describe(client, GROUP, 'g', ['consumer.session.timeout.ms'])),
      ['consumer.session.timeout.ms 45000 5 [group.consumer.session.timeout.ms=45000@5]'], 'validateOnly stores nothing');

    assert.deepEqual(await incremental(client, GROUP, 'g', [
      ['consumer.session.timeout.ms', ' 50000 '], ['share.auto.offset.reset', 'by_duration:PT1H'], ['share.renew.acknowledge.enable', 'TRUE'],
      ['nope', null, DELETE],
    ]), [0, null]);
    const keys = ['consumer.session.timeout.ms', 'share.auto.offset.reset', 'share.renew.acknowledge.enable'];
    assert.deepEqual(lines(await describe(client, GROUP, 'g', keys)), [
      'consumer.session.timeout.ms 50000 8 [consumer.session.timeout.ms=50000@8 group.consumer.session.timeout.ms=45000@5]',
      'share.auto.offset.reset by_duration:PT1H 8 [share.auto.offset.reset=by_duration:PT1H@8 share.auto.offset.reset=latest@5]',
      'share.renew.acknowledge.enable true 8 [share.renew.acknowledge.enable=true@8 share.renew.acknowledge.enable=true@5]',
    ]);
    assert.deepEqual((await describe(client, GROUP, 'g', keys, false)).configs.map((c) => [c.configSource, c.synonyms]), [[8, []], [8, []], [8, []]]);

    assert.deepEqual(await incremental(client, GROUP, 'g', [['share.auto.offset.reset', null, DELETE]]), [0, null]);
    assert.deepEqual((await describe(client, GROUP, 'g', ['share.auto.offset.reset'])).configs.map((c) => [c.value, c.configSource]), [['latest', 5]]);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('AlterConfigs GROUP and CLIENT_METRICS: the request\'s set replaces the resource\'s', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  const alter = async (type: number, name: string, configs: [string, string][]) => {
    const { responses } = await roundTrip(client, alterConfigsApi, 2, {
      resources: [{ resourceType: type, resourceName: name, configs: configs.map(([key, value]) => ({ name: key, value })) }], validateOnly: false,
    });
    return [responses[0]!.errorCode, responses[0]!.errorMessage];
  };
  try {
    assert.deepEqual(await incremental(client, GROUP, 'g', [['share.isolation.level', 'read_committed']]), [0, null]);
    assert.deepEqual(await alter(GROUP, 'g', [['consumer.heartbeat.interval.ms', '6000']]), [0, null]);
    const configs = (await describe(client, GROUP, 'g')).configs.filter((c) => c.configSource === 8).map((c) => `${c.name}=${c.value}`);
    assert.deepEqual(configs, ['consumer.heartbeat.interval.ms=6000']);
    assert.deepEqual(await alter(GROUP, 'g', [['nope', '1']]), [40, 'Unknown group config name: nope']);
    assert.deepEqual(await alter(GROUP, '', [['consumer.heartbeat.interval.ms', '6000']]), [42, 'Default group resources are not allowed.']);
    assert.deepEqual(await alter(CLIENT_METRICS, 'n', [['interval.ms', '5000']]), [0, null]);
    assert.deepEqual(lines(await describe(client, CLIENT_METRICS, 'n')), ['interval.ms 5000 7 [interval.ms=5000@7]', 'match  5 []', 'metrics  5 []']);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('CLIENT_METRICS: stored and described without a telemetry plugin, with Kafka\'s checks', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    const refused: [Op[], number, string][] = [
      [[['nope', '1']], 42, 'Unknown client metrics configuration: nope'],
      [[['interval.ms', '10']], 42, 'Invalid value 10 for interval.ms, interval must be between 100 and 3600000 (1 hour)'],
      [[['interval.ms', 'abc']], 40, 'Invalid value abc for configuration interval.ms: Not a number of type INT'],
      [[['metrics', 'x', APPEND]], 40, 'Can\'t APPEND to key metrics because its type is not LIST.'],
      [[['match', 'foo=abc']], 40, 'Illegal client matching pattern: foo=abc'],
      [[['match', 'client_id=[[']], 40, 'Illegal client matching pattern: client_id=[['],
      [[['match', 'client_id=']], 40, 'Illegal client matching pattern: client_id='],
      [[['metrics', 'a,,b']], 40, 'Configuration \'metrics\' values must not be empty.'],
    ];
    for (const [ops, code, message] of refused) assert.deepEqual(await incremental(client, CLIENT_METRICS, 'm', ops), [code, message], JSON.stringify(ops));
    assert.deepEqual(await incremental(client, CLIENT_METRICS, '', [['interval.ms', '1000']]), [42, 'Subscription name can\'t be empty']);
    assert.deepEqual(await incremental(client, CLIENT_METRICS, 'm', [
      ['metrics', ' a , b '], ['match', 'client_id=x, client_software_name = y'], ['interval.ms', '1000'],
    ]), [0, null]);
    assert.deepEqual(lines(await describe(client, CLIENT_METRICS, 'm')), [
      'interval.ms 1000 7 [interval.ms=1000@7]',
      'match client_id=x,client_software_name = y 7 [match=client_id=x,client_software_name = y@7]',
      'metrics a,b 7 [metrics=a,b@7]',
    ]);
    assert.deepEqual(lines(await describe(client, CLIENT_METRICS, 'nosuch')), ['interval.ms 300000 5 []', 'match  5 []', 'metrics  5 []']);
    const empty = await describe(client, CLIENT_METRICS, '');
    assert.deepEqual([empty.errorCode, empty.errorMessage], [42, 'Client metrics subscription name must not be empty']);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('ListConfigResources: v0 lists client metrics only; v1 groups with configs, client metrics, this broker, topics, in Kafka\'s order', async () => {
  const broker = await startTestBroker({ 'node.id': '1' });
  const client = await RawClient.connect(broker.port);
  const list = async (version: number, resourceTypes: number[]) => {
    const response = await roundTrip(client, listConfigResourcesApi, version, { resourceTypes });
    return [response.errorCode, response.configResources.map((r) => version === 0 ? r.resourceName : `${r.resourceType}:${r.resourceName}`)];
  };
  try {
    for (const group of ['live', 'g4', 'qc', 'gone', 'real', 'tg', 'g1']) await incremental(client, GROUP, group, [['consumer.session.timeout.ms', '50000']]);
    await incremental(client, GROUP, 'gone', [['consumer.session.timeout.ms', null, DELETE]]);
    await incremental(client, GROUP, 'never', [['consumer.session.timeout.ms', null, DELETE]]);
    for (const name of ['qm', 'cm4', 'cm', 'cm3']) await incremental(client, CLIENT_METRICS, name, [['interval.ms', '1000']]);
    const topics = ['zeta', 'alpha', 'mid', 'b', 'a', 'aa', 't1', 't9'].map((name) => ({ name, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }));
    await roundTrip(client, createTopicsApi, 7, { topics, timeoutMs: 5000, validateOnly: false });

    // Names as Kafka 4.3.1 listed them: its ConcurrentHashMaps' bins, its metadata image's hash order for topics.
    const groups = ['32:qc', '32:tg', '32:g1', '32:real', '32:g4', '32:live'];
    const subscriptions = ['16:cm3', '16:cm', '16:cm4', '16:qm'];
    const topicNames = ['2:a', '2:b', '2:aa', '2:t1', '2:t9', '2:mid', '2:zeta', '2:alpha'];
    assert.deepEqual(await list(0, []), [0, ['cm3', 'cm', 'cm4', 'qm']]);
    assert.deepEqual(await list(1, []), [0, [...groups, ...subscriptions, '8:1', '4:1', ...topicNames]]);
    assert.deepEqual(await list(1, [2, 32, 32]), [0, [...groups, ...topicNames]]);
    for (const type of [0, 1, 3, 64]) assert.deepEqual(await list(1, [type]), [35, []], `type ${type}`);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('DeleteGroups leaves the group\'s configs, as Kafka 4.3.1 does', async () => {
  const broker = await startTestBroker();
  const client = await RawClient.connect(broker.port);
  try {
    await roundTrip(client, createTopicsApi, 7, { topics: [{ name: 't', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 5000, validateOnly: false });
    const committed = await roundTrip(client, offsetCommitApi, 8, {
      ...createOffsetCommitRequest(), groupId: 'g', generationIdOrMemberEpoch: -1,
      topics: [{ name: 't', topicId: ZERO_UUID, partitions: [{ partitionIndex: 0, committedOffset: 0n, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    });
    assert.equal(committed.topics[0]!.partitions[0]!.errorCode, 0);
    assert.deepEqual(await incremental(client, GROUP, 'g', [['streams.num.standby.replicas', '1']]), [0, null]);
    const { results } = await roundTrip(client, deleteGroupsApi, 2, { groupsNames: ['g'] });
    assert.equal(results[0]!.errorCode, 0);
    assert.deepEqual((await describe(client, GROUP, 'g', ['streams.num.standby.replicas'])).configs.map((c) => [c.value, c.configSource]), [['1', 8]]);
    const listed = await roundTrip(client, listConfigResourcesApi, 1, { resourceTypes: [GROUP] });
    assert.deepEqual(listed.configResources.map((r) => r.resourceName), ['g']);
  } finally {
    await client.close();
    await broker.close();
  }
});

test('group and client metrics configs outlive a restart of a broker on log.dirs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-resource-configs-'));
  const settings = { 'log.dirs': dir, 'gregor.log.engine': 'file' };
  try {
    let broker = await startTestBroker(settings);
    let client = await RawClient.connect(broker.port);
    assert.deepEqual(await incremental(client, GROUP, 'g', [['streams.num.standby.replicas', '1']]), [0, null]);
    assert.deepEqual(await incremental(client, CLIENT_METRICS, 'm', [['metrics', 'org.apache.kafka.producer.']]), [0, null]);
    await client.close();
    await broker.close();
    broker = await startTestBroker(settings);
    client = await RawClient.connect(broker.port);
    assert.deepEqual(lines(await describe(client, GROUP, 'g', ['streams.num.standby.replicas'])),
      ['streams.num.standby.replicas 1 8 [streams.num.standby.replicas=1@8 group.streams.num.standby.replicas=0@5]']);
    assert.deepEqual((await describe(client, CLIENT_METRICS, 'm', ['metrics'])).configs.map((c) => c.value), ['org.apache.kafka.producer.']);
    await client.close();
    await broker.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the per-group lookup: a group\'s overrides over the broker\'s values, held within the broker\'s current bounds', async () => {
  const configs = await ResourceConfigs.open();
  await configs.replace('groups', 'g', { 'consumer.session.timeout.ms': '50000', 'share.isolation.level': 'read_committed' });
  const broker = resolveBrokerConfig({ 'group.consumer.heartbeat.interval.ms': '6000' });
  const resolved = configs.groupConfig('g', broker);
  assert.equal(resolved['consumer.session.timeout.ms'], 50000);
  assert.equal(resolved['share.isolation.level'], 'read_committed');
  assert.equal(resolved['consumer.heartbeat.interval.ms'], 6000);
  assert.equal(configs.groupConfig('other', broker)['consumer.session.timeout.ms'], 45000);
  // Bounds lowered after the value was set: Kafka caps it and says so.
  const warnings: string[] = [];
  const lowered = resolveBrokerConfig({ 'group.consumer.max.session.timeout.ms': '48000' });
  const warn = (line: string) => warnings.push(line);
  assert.equal(configs.groupConfig('g', lowered, warn)['consumer.session.timeout.ms'], 48000);
  assert.equal(configs.groupConfig('g', lowered, warn)['consumer.session.timeout.ms'], 48000);
  assert.deepEqual(warnings, ["The group config 'consumer.session.timeout.ms' for group 'g' has value 50000 which exceeds the broker's allowed maximum 48000. " +
    'The effective value will be capped to 48000.'], 'said once, as Kafka says it when the config is loaded');
  await configs.replace('groups', 'g', { 'consumer.session.timeout.ms': '46000' });
  assert.equal(configs.groupConfig('g', lowered, warn)['consumer.session.timeout.ms'], 46000);
  assert.equal(resolveGroupConfig('g', new Map([['consumer.session.timeout.ms', '1000']]), lowered)['consumer.session.timeout.ms'], 45000);
});
