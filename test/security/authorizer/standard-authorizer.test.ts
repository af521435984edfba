// StandardAuthorizer's decisions (Kafka 4.3.1's StandardAuthorizerData.authorize and Authorizer.authorizeByResourceType)
// and its ACL store (AclControlManager's checks, filters as AclBindingFilter.matches).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AclOperation as Op, AclPermissionType, PatternType, ResourceType, type Acl, type AclFilter } from '../../../src/security/authorizer/acl.js';
import { memoryAclStore } from '../../../src/security/authorizer/acl-store.js';
import { StandardAuthorizer } from '../../../src/security/authorizer/standard-authorizer.js';

const ALLOW = AclPermissionType.ALLOW;
const DENY = AclPermissionType.DENY;
const acl = (resourceName: string, operation: number, permissionType: number = ALLOW, more: Partial<Acl> = {}): Acl => ({
  resourceType: ResourceType.TOPIC, resourceName, patternType: PatternType.LITERAL, principal: 'User:alice', host: '*', operation, permissionType, ...more,
});
const alice = { principal: 'User:alice', host: '127.0.0.1' };
const bob = { principal: 'User:bob', host: '127.0.0.1' };

async function authorizer(acls: Acl[], settings = { superUsers: ['User:admin'], allowEveryoneIfNoAclFound: false }): Promise<StandardAuthorizer> {
  const a = await StandardAuthorizer.open(memoryAclStore(), settings);
  assert.deepEqual(await a.create(acls), acls.map(() => null));
  return a;
}

test('literal, wildcard and prefixed ACLs apply; others do not', async () => {
  const a = await authorizer([acl('orders', Op.READ), acl('*', Op.WRITE), acl('pay-', Op.DELETE, ALLOW, { patternType: PatternType.PREFIXED })]);
  assert.equal(a.authorize(alice, Op.READ, ResourceType.TOPIC, 'orders'), true);
  assert.equal(a.authorize(alice, Op.READ, ResourceType.TOPIC, 'orders2'), false);
  assert.equal(a.authorize(alice, Op.WRITE, ResourceType.TOPIC, 'anything'), true);
  assert.equal(a.authorize(alice, Op.DELETE, ResourceType.TOPIC, 'pay-in'), true);
  assert.equal(a.authorize(alice, Op.DELETE, ResourceType.TOPIC, 'pay'), false);
  assert.equal(a.authorize(alice, Op.READ, ResourceType.GROUP, 'orders'), false);
  assert.equal(a.authorize(bob, Op.READ, ResourceType.TOPIC, 'orders'), false);
});

test('DENY wins; implied DESCRIBE and DESCRIBE_CONFIGS come from ALLOW only; ALL is every operation', async () => {
  const a = await authorizer([
    acl('t', Op.READ), acl('t', Op.ALTER_CONFIGS), acl('*', Op.READ, DENY, { principal: 'User:bob' }), acl('t', Op.ALL, ALLOW, { principal: 'User:bob' }),
    acl('u', Op.ALL), acl('u', Op.WRITE, DENY),
  ]);
  assert.equal(a.authorize(alice, Op.DESCRIBE, ResourceType.TOPIC, 't'), true);
  assert.equal(a.authorize(alice, Op.DESCRIBE_CONFIGS, ResourceType.TOPIC, 't'), true);
  assert.equal(a.authorize(alice, Op.WRITE, ResourceType.TOPIC, 't'), false);
  assert.equal(a.authorize(bob, Op.READ, ResourceType.TOPIC, 't'), false, 'a wildcard DENY beats a literal ALL');
  assert.equal(a.authorize(bob, Op.DESCRIBE, ResourceType.TOPIC, 't'), true, 'a DENY of READ does not deny DESCRIBE');
  assert.equal(a.authorize(alice, Op.WRITE, ResourceType.TOPIC, 'u'), false);
  assert.equal(a.authorize(alice, Op.CREATE, ResourceType.TOPIC, 'u'), true);
  // READ, DESCRIBE (implied), DESCRIBE_CONFIGS and ALTER_CONFIGS of TOPIC's supported operations: bits 3, 8, 10, 11.
  assert.equal(a.authorizedOperations(alice, ResourceType.TOPIC, 't'), (1 << 3) | (1 << 8) | (1 << 10) | (1 << 11));
});

test('hosts, User:*, super.users and allow.everyone.if.no.acl.found', async () => {
  const a = await authorizer([acl('t', Op.READ, ALLOW, { principal: 'User:*', host: '10.0.0.1' })]);
  assert.equal(a.authorize({ principal: 'User:carol', host: '10.0.0.1' }, Op.READ, ResourceType.TOPIC, 't'), true);
  assert.equal(a.authorize({ principal: 'User:carol', host: '10.0.0.2' }, Op.READ, ResourceType.TOPIC, 't'), false);
  assert.equal(a.authorize({ principal: 'User:admin', host: '10.0.0.2' }, Op.ALTER, ResourceType.CLUSTER, 'kafka-cluster'), true);
  const open = await authorizer([acl('t', Op.READ)], { superUsers: [], allowEveryoneIfNoAclFound: true });
  assert.equal(open.authorize(bob, Op.WRITE, ResourceType.TOPIC, 'other'), true, 'no ACL on the resource');
  assert.equal(open.authorize(bob, Op.WRITE, ResourceType.TOPIC, 't'), false, 'an ACL on the resource, none for bob');
});

test('authorizeByResourceType: an ALLOW not dominated by a DENY', async () => {
  const a = await authorizer([acl('pay-', Op.WRITE, ALLOW, { patternType: PatternType.PREFIXED }), acl('p', Op.WRITE, DENY, { patternType: PatternType.PREFIXED }),
    acl('orders', Op.WRITE)]);
  assert.equal(a.authorizeByResourceType(alice, Op.WRITE, ResourceType.TOPIC), true, 'orders is allowed');
  const b = await authorizer([acl('pay-', Op.WRITE, ALLOW, { patternType: PatternType.PREFIXED }), acl('p', Op.WRITE, DENY, { patternType: PatternType.PREFIXED })]);
  assert.equal(b.authorizeByResourceType(alice, Op.WRITE, ResourceType.TOPIC), false);
  assert.equal(b.authorizeByResourceType(alice, Op.READ, ResourceType.TOPIC), false);
});

test('creations are checked as Kafka checks them; filters delete what they match', async () => {
  const a = await authorizer([]);
  assert.deepEqual(await a.create([
    acl('t', Op.READ), acl('t', Op.READ), acl('', Op.READ), acl('x', Op.READ, ALLOW, { resourceType: ResourceType.CLUSTER }),
    acl('t', Op.ANY), acl('t', Op.READ, AclPermissionType.ANY), acl('t', Op.READ, ALLOW, { patternType: PatternType.MATCH }),
  ]), [null, null, 'Invalid empty resource name', 'The only valid name for the CLUSTER resource is kafka-cluster', 'Invalid operation ANY',
    'Invalid permissionType ANY', 'Invalid patternType MATCH']);
  await a.create([acl('pre', Op.WRITE, ALLOW, { patternType: PatternType.PREFIXED })]);
  const any: AclFilter = { resourceType: ResourceType.ANY, resourceName: null, patternType: PatternType.ANY, principal: null, host: null, operation: Op.ANY, permissionType: AclPermissionType.ANY };
  assert.equal(a.describe(any).length, 2, 'the duplicate was created once');
  assert.deepEqual(a.describe({ ...any, resourceName: 'prefix', patternType: PatternType.MATCH }).map((x) => x.resourceName), ['pre']);
  assert.deepEqual(a.describe({ ...any, resourceName: 'prefix', patternType: PatternType.LITERAL }), []);
  assert.deepEqual(await a.delete([{ ...any, operation: 0 }, { ...any, resourceName: 't' }]), [{ problem: 'Unknown entryFilter.' }, { deleted: [acl('t', Op.READ)] }]);
  assert.deepEqual(a.describe(any).map((x) => x.resourceName), ['pre']);
});
