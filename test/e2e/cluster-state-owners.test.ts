// The owners of the cluster-wide metadata over real etcd stores, two "brokers" in one process (each its own etcd
// client): DynamicConfigs follows a cluster default set through the other (its live config and its listeners), keeps
// a broker's own layer to that broker, and two brokers' changes to different keys of the cluster default made at once
// both stay; ClientQuotas hands a quota altered through the other to its subscribers (the quota managers); the
// authorizer decides with an ACL created through the other; a SCRAM user added through one is found by the other. A
// delegation token created through one authenticates on the other, and one expired through the other is gone. A
// broker started in cluster mode over a log dir holding a single broker's files warns and leaves them unread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Etcd3 } from 'etcd3';
import { EtcdStateStore } from '../../src/cluster/etcd-state-store.js';
import { resolveBrokerConfig, type BrokerConfig } from '../../src/config/index.js';
import { silentLog } from '../../src/log.js';
import { dynamicConfigEntries } from '../../src/server/admin/dynamic-config-store.js';
import { DynamicConfigs, initialClusterDefault } from '../../src/server/admin/dynamic-configs.js';
import { CLIENT_QUOTA_ENTRIES } from '../../src/server/admin/client-quota-store.js';
import { ClientQuotas } from '../../src/server/admin/client-quotas.js';
import type { ClientQuotaEntry } from '../../src/broker/quota/quota-managers.js';
import { ACL_ENTRIES } from '../../src/security/authorizer/acl-store.js';
import { AclOperation, AclPermissionType, PatternType } from '../../src/security/authorizer/acl.js';
import { StandardAuthorizer } from '../../src/security/authorizer/standard-authorizer.js';
import { SCRAM_ENTRIES, ScramCredentials } from '../../src/security/sasl/scram-credentials.js';
import { DelegationTokens, TOKEN_ENTRIES } from '../../src/security/delegation-tokens.js';
import { SCRAM_MECHANISMS } from '../../src/security/sasl/scram-formatter.js';
import type { StateEntries } from '../../src/storage/file/state-file.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ACLS_FILE, formatAcls } from '../../src/security/authorizer/acl-store.js';
import { startBroker } from '../../src/server/broker.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { createMetadataRequest, metadataApi } from '../../src/protocol/generated/metadata.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';

let etcd: EtcdServer;
const clients: Etcd3[] = [];
const stores: EtcdStateStore<unknown>[] = [];

before(async () => {
  etcd = await startEtcd();
});

after(async () => {
  for (const store of stores) await store.close();
  for (const client of clients) client.close();
  await etcd?.stop();
});

function storeOf<T>(prefix: string, form: StateEntries<T>, seed?: { formedKey: string; value: T }): EtcdStateStore<T> {
  const client = new Etcd3({ hosts: [etcd.endpoint] });
  clients.push(client);
  const store = new EtcdStateStore(client, prefix, form, silentLog(), seed === undefined ? {} : { seed });
  stores.push(store as EtcdStateStore<unknown>);
  return store;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const setting = (config: BrokerConfig, key: string) => (config as unknown as Record<string, unknown>)[key];

async function dynamicConfigsOf(nodeId: number): Promise<DynamicConfigs> {
  const staticConfig = resolveBrokerConfig({ 'node.id': String(nodeId), 'min.insync.replicas': '2' });
  return DynamicConfigs.open(staticConfig, storeOf('/owners/broker-configs/', dynamicConfigEntries(nodeId),
    { formedKey: '/owners/formed/broker-configs', value: { perBroker: new Map(), clusterDefault: initialClusterDefault(staticConfig) } }));
}

test('dynamic broker configs: a cluster default set through one broker is live on the other, which tells its listeners', async () => {
  const one = await dynamicConfigsOf(1);
  const two = await dynamicConfigsOf(2);
  // Written once, when the cluster was formed, as Kafka's controller does.
  assert.deepEqual([...two.clusterDefault], [['min.insync.replicas', '2']]);
  const heard: unknown[] = [];
  two.onChange((next) => { heard.push(setting(next, 'log.retention.ms')); });
  await one.replace('clusterDefault', { 'min.insync.replicas': '2', 'log.retention.ms': '123456789' });
  await eventually(() => setting(two.config, 'log.retention.ms') === 123456789, 'broker 2 takes the cluster default');
  assert.deepEqual(heard, [123456789]);

  // A broker's own layer stays its own.
  await two.replace('perBroker', { 'log.retention.bytes': '1000' });
  assert.equal(setting(two.config, 'log.retention.bytes'), 1000);
  const again = await dynamicConfigsOf(2);
  assert.deepEqual([...again.perBroker], [['log.retention.bytes', '1000']]);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual([...one.perBroker], [], 'broker 1 does not take broker 2\'s own configs');

  // Changes to different keys made at once through two brokers, each from the layer it held: both stay.
  await Promise.all([
    one.replace('clusterDefault', { ...Object.fromEntries(one.clusterDefault), 'message.max.bytes': '2000000' }),
    two.replace('clusterDefault', { ...Object.fromEntries(two.clusterDefault), 'log.cleaner.backoff.ms': '20000' }),
  ]);
  const both = (configs: DynamicConfigs) => configs.clusterDefault.get('message.max.bytes') === '2000000' && configs.clusterDefault.get('log.cleaner.backoff.ms') === '20000';
  await eventually(() => both(one) && both(two), `both changes on both brokers: ${JSON.stringify([[...one.clusterDefault], [...two.clusterDefault]])}`);
  assert.equal(setting(one.config, 'log.cleaner.backoff.ms'), 20000);
});

test('client quotas altered through one broker reach the other\'s quota managers', async () => {
  const one = await ClientQuotas.open(storeOf('/owners/client-quotas/', CLIENT_QUOTA_ENTRIES));
  const two = await ClientQuotas.open(storeOf('/owners/client-quotas/', CLIENT_QUOTA_ENTRIES));
  let enforced: readonly ClientQuotaEntry[] = [];
  two.subscribe((image) => { enforced = image; });
  const results = await one.alter([{ entity: [{ entityType: 'client-id', entityName: 'slow' }], ops: [{ key: 'producer_byte_rate', value: 1024 }] }], false);
  assert.equal(results[0]![1].code, 0);
  await eventually(() => enforced.length === 1, 'broker 2 enforces the quota');
  assert.deepEqual(enforced, [{ user: undefined, clientId: 'slow', quotas: [['producer_byte_rate', 1024]] }]);
  assert.deepEqual(await two.describe([], false), [{ entity: [['client-id', 'slow']], values: [['producer_byte_rate', 1024]] }]);
});

test('an ACL created through one broker decides on the other; a SCRAM user added through one is found by the other', async () => {
  const settings = { superUsers: [], allowEveryoneIfNoAclFound: true };
  const one = await StandardAuthorizer.open(storeOf('/owners/acls/', ACL_ENTRIES), settings);
  const two = await StandardAuthorizer.open(storeOf('/owners/acls/', ACL_ENTRIES), settings);
  const alice = { principal: 'User:alice', host: '127.0.0.1' };
  const TOPIC = 2;
  assert.equal(two.authorize(alice, AclOperation.WRITE, TOPIC, 'orders'), true);
  assert.deepEqual(await one.create([{ resourceType: TOPIC, resourceName: 'orders', patternType: PatternType.LITERAL, principal: 'User:alice',
    host: '*', operation: AclOperation.WRITE, permissionType: AclPermissionType.DENY }]), [null]);
  await eventually(() => !two.authorize(alice, AclOperation.WRITE, TOPIC, 'orders'), 'broker 2 denies alice');

  const scramOne = await ScramCredentials.open(storeOf('/owners/scram-credentials/', SCRAM_ENTRIES));
  const scramTwo = await ScramCredentials.open(storeOf('/owners/scram-credentials/', SCRAM_ENTRIES));
  const sha256 = SCRAM_MECHANISMS.find((m) => m.name === 'SCRAM-SHA-256')!;
  const altered = await scramOne.alter([], [{ name: 'alice', mechanism: sha256.type, iterations: 8192, salt: Buffer.from('salt'), saltedPassword: Buffer.alloc(32, 7) }]);
  assert.deepEqual(altered.upserted, ['alice']);
  await eventually(() => scramTwo.get('alice', sha256) !== undefined, 'broker 2 has alice');
  assert.deepEqual(scramTwo.get('alice', sha256), scramOne.get('alice', sha256));
});

test('a delegation token created through one broker authenticates on the other; expired through the other, it is gone from both', async () => {
  const settings = { secretKey: 'shared-secret', maxLifetimeMs: 7 * 24 * 3600 * 1000, expiryTimeMs: 24 * 3600 * 1000 };
  const one = await DelegationTokens.open(storeOf('/owners/delegation-tokens/', TOKEN_ENTRIES), settings);
  const two = await DelegationTokens.open(storeOf('/owners/delegation-tokens/', TOKEN_ENTRIES), settings);
  const alice = { type: 'User', name: 'alice' };
  const sha256 = SCRAM_MECHANISMS.find((m) => m.name === 'SCRAM-SHA-256')!;
  const created = await one.create(alice, alice, [], -1);
  assert.equal(created.error, 'NONE');
  const token = (created as { value: { tokenId: string; hmac: Buffer } }).value;
  await eventually(() => two.credential(token.tokenId, sha256) !== undefined, 'broker 2 knows the token');
  assert.equal(two.credential(token.tokenId, sha256)!.owner, 'alice');
  assert.equal((await two.expire(alice, token.hmac, -1)).error, 'NONE');
  await eventually(() => one.credential(token.tokenId, sha256) === undefined, 'broker 1 forgets the token');
  assert.deepEqual(one.describe(() => true), []);
});

test('a broker that ran alone before joins a cluster: its own files of the metadata are left on disk, not read, and said so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-owners-'));
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
  try {
    // What a single broker had stored: a DENY ACL for everyone on every topic.
    writeFileSync(join(dir, ACLS_FILE), formatAcls([{ resourceType: 2, resourceName: '*', patternType: PatternType.LITERAL, principal: 'User:*',
      host: '*', operation: AclOperation.ALL, permissionType: AclPermissionType.DENY }]));
    const broker = await startBroker(resolveBrokerConfig({
      'node.id': '7', listeners: 'PLAINTEXT://127.0.0.1:0', 'log.dirs': dir, 'gregor.cluster.etcd.endpoints': etcd.endpoint, 'gregor.cluster.name': 'owners-files',
      'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'allow.everyone.if.no.acl.found': 'true',
    }), { logger: log });
    try {
      const path = join(dir, ACLS_FILE);
      assert.deepEqual(lines.filter((l) => l.level === 40 && l.msg.includes(ACLS_FILE)).map((l) => l.msg),
        [`${path} is not read in cluster mode: etcd holds the ACLs of the cluster`]);
      assert.equal(readFileSync(path, 'utf8').includes('"User:*"'), true, 'left on disk');
      const client = await RawClient.connect(broker.addresses[0]!.port);
      try {
        const response = await roundTrip(client, metadataApi, 12, { ...createMetadataRequest(), topics: [{ topicId: ZERO_UUID, name: 'owners-files-topic' }], allowAutoTopicCreation: true });
        assert.equal(response.topics[0]!.errorCode === ErrorCode.TOPIC_AUTHORIZATION_FAILED, false, 'the file\'s DENY is not in force');
      } finally {
        await client.close();
      }
    } finally {
      await broker.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
