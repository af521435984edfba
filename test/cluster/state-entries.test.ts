// The StateEntries forms of the cluster-wide metadata (one etcd key per entry in cluster mode): each value comes back
// as it went in, names with '/', '%' or spaces stay one key segment, a broker's form writes and reads only its own
// per-broker layer, and an entry that is not the form is a one-line error naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACL_ENTRIES } from '../../src/security/authorizer/acl-store.js';
import { AclOperation, AclPermissionType, PatternType, type Acl } from '../../src/security/authorizer/acl.js';
import { SCRAM_ENTRIES } from '../../src/security/sasl/scram-credentials.js';
import { dynamicConfigEntries } from '../../src/server/admin/dynamic-config-store.js';
import { RESOURCE_CONFIG_ENTRIES } from '../../src/server/admin/resource-config-store.js';
import { CLIENT_QUOTA_ENTRIES } from '../../src/server/admin/client-quota-store.js';

const roundTrip = <T>(form: { toEntries(v: T): Map<string, string>; fromEntries(e: Iterable<readonly [string, string]>): T }, value: T): T =>
  form.fromEntries(form.toEntries(value));

test('ACLs: one entry per ACL, named by all its fields whatever their property order', () => {
  const acl: Acl = { resourceType: 2, resourceName: 'orders/eu 100%', patternType: PatternType.PREFIXED, principal: 'User:a/b',
    host: '*', operation: AclOperation.WRITE, permissionType: AclPermissionType.DENY };
  const reordered = { permissionType: acl.permissionType, operation: acl.operation, host: acl.host, principal: acl.principal,
    patternType: acl.patternType, resourceName: acl.resourceName, resourceType: acl.resourceType } as Acl;
  const entries = ACL_ENTRIES.toEntries([acl]);
  assert.deepEqual([...entries.keys()], [...ACL_ENTRIES.toEntries([reordered]).keys()]);
  assert.equal([...entries.keys()][0]!.includes('/'), false);
  assert.deepEqual(roundTrip(ACL_ENTRIES, [acl, { ...acl, operation: AclOperation.READ }]), [acl, { ...acl, operation: AclOperation.READ }]);
  assert.throws(() => ACL_ENTRIES.fromEntries([['x', '{"resourceType":2}']]), { message: 'the ACLs: entry x is not an ACL' });
  assert.throws(() => ACL_ENTRIES.fromEntries([['x', 'nope']]), { message: 'the ACLs: entry x is not valid JSON' });
});

test('SCRAM credentials: one entry per user and mechanism, never a password', () => {
  const credential = { salt: Buffer.from('salt'), storedKey: Buffer.alloc(32, 1), serverKey: Buffer.alloc(32, 2), iterations: 8192 };
  const value = new Map([['al/ice %', new Map([['SCRAM-SHA-256', credential], ['SCRAM-SHA-512', { ...credential, iterations: 4096 }]])]]);
  const entries = SCRAM_ENTRIES.toEntries(value);
  assert.deepEqual([...entries.keys()], ['al%2Fice%20%25/SCRAM-SHA-256', 'al%2Fice%20%25/SCRAM-SHA-512']);
  assert.deepEqual(roundTrip(SCRAM_ENTRIES, value), value);
  assert.throws(() => SCRAM_ENTRIES.fromEntries([['bob/SCRAM-MD5', entries.values().next().value!]]),
    { message: 'the SCRAM credentials: entry bob/SCRAM-MD5 must be a SCRAM mechanism holding salt, storedKey, serverKey and iterations' });
});

test('dynamic broker configs: the cluster default and this broker\'s own layer; another broker\'s entries are not read', () => {
  const mine = dynamicConfigEntries(2);
  const value = { perBroker: new Map([['log.retention.bytes', '1000']]), clusterDefault: new Map([['min.insync.replicas', '2']]) };
  assert.deepEqual([...mine.toEntries(value)], [['default/min.insync.replicas', '2'], ['2/log.retention.bytes', '1000']]);
  assert.deepEqual(mine.fromEntries([...mine.toEntries(value), ['3/log.retention.bytes', '5'], ['22/message.max.bytes', '9']]), value);
});

test('group and client metrics configs: one entry per resource', () => {
  const value = {
    groups: new Map([['team/a b', new Map([['consumer.session.timeout.ms', '50000']])]]),
    clientMetrics: new Map([['all', new Map([['interval.ms', '1000'], ['metrics', '*']])]]),
  };
  assert.deepEqual([...RESOURCE_CONFIG_ENTRIES.toEntries(value).keys()], ['groups/team%2Fa%20b', 'client-metrics/all']);
  assert.deepEqual(roundTrip(RESOURCE_CONFIG_ENTRIES, value), value);
  assert.throws(() => RESOURCE_CONFIG_ENTRIES.fromEntries([['topics/x', '{}']]),
    { message: 'the group and client metrics configs: entry topics/x is not groups/<name> or client-metrics/<name>' });
});

test('client quotas: one entry per entity, named in type order, values that JSON has no number for kept', () => {
  const value = [
    { entity: [['user', 'alice'], ['client-id', null]] as [string, string | null][], quotas: [['producer_byte_rate', 1024], ['request_percentage', Infinity]] as [string, number][] },
    { entity: [['ip', '10.0.0.1']] as [string, string | null][], quotas: [['connection_creation_rate', 5]] as [string, number][] },
  ];
  const entries = CLIENT_QUOTA_ENTRIES.toEntries(value);
  assert.equal(entries.size, 2);
  assert.deepEqual(CLIENT_QUOTA_ENTRIES.toEntries([{ ...value[0]!, entity: [['client-id', null], ['user', 'alice']] }]).keys().next().value, entries.keys().next().value);
  assert.deepEqual(roundTrip(CLIENT_QUOTA_ENTRIES, value), value);
  assert.throws(() => CLIENT_QUOTA_ENTRIES.fromEntries([['x', '{"entity":[["user",1]],"quotas":[]}']]),
    { message: 'the client quotas: entry x must hold "entity" pairs and "quotas" pairs of a key and a number as text' });
});
