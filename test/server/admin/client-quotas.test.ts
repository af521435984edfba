// AlterClientQuotas and DescribeClientQuotas over a raw socket. Every expected answer (codes, messages, and the
// order of entities, names and values) is what Kafka 4.3.1's reference broker returned for the same requests
// in the same order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, errorInfo } from '../../../src/protocol/error-codes.js';
import { alterClientQuotasApi, type AlterClientQuotasResponse } from '../../../src/protocol/generated/alter-client-quotas.js';
import { describeClientQuotasApi, type DescribeClientQuotasResponse } from '../../../src/protocol/generated/describe-client-quotas.js';
import { CLIENT_QUOTAS_FILE } from '../../../src/server/admin/client-quota-store.js';
import { roundTrip, startTestBroker } from '../broker-harness.js';
import { RawClient } from '../raw-client.js';

type Pairs = [string, string | null][];
/** A quota to set, or null to remove it. */
type Ops = [string, number | null][];

let broker: Awaited<ReturnType<typeof startTestBroker>>;
let client: RawClient;

before(async () => {
  broker = await startTestBroker();
  client = await RawClient.connect(broker.port);
});
after(async () => {
  await client.close();
  await broker.close();
});

const entityData = (pairs: Pairs) => pairs.map(([entityType, entityName]) => ({ entityType, entityName }));
const opData = (ops: Ops) => ops.map(([key, value]) => ({ key, value: value ?? 0, remove: value === null }));

function alterMany(c: RawClient, entries: [Pairs, Ops][], validateOnly = false, version = 1): Promise<AlterClientQuotasResponse> {
  return roundTrip(c, alterClientQuotasApi, version, {
    entries: entries.map(([entity, ops]) => ({ entity: entityData(entity), ops: opData(ops) })), validateOnly,
  });
}

/** One entity's alteration: [code, message] of its single result. */
async function alter(entity: Pairs, ops: Ops, validateOnly = false, version = 1): Promise<[number, string | null]> {
  const { entries } = await alterMany(client, [[entity, ops]], validateOnly, version);
  assert.equal(entries.length, 1);
  return [entries[0]!.errorCode, entries[0]!.errorMessage];
}

/** Components as [type, matchType (0 exact, 1 default, 2 specified), match]. */
function describeRaw(c: RawClient, components: [string, number, string?][], strict = false, version = 1): Promise<DescribeClientQuotasResponse> {
  return roundTrip(c, describeClientQuotasApi, version, {
    components: components.map(([entityType, matchType, match]) => ({ entityType, matchType, match: match ?? null })), strict,
  });
}

/** The entries found, as [entity pairs, [key, value] pairs], in the order served. */
async function describe(components: [string, number, string?][], strict = false, version = 1, c = client) {
  const response = await describeRaw(c, components, strict, version);
  assert.deepEqual([response.errorCode, response.errorMessage], [ErrorCode.NONE, '']);
  return response.entries!.map((e) => [e.entity.map((x) => [x.entityType, x.entityName]), e.values.map((v) => [v.key, v.value])]);
}

type Result = [number, string | null];
const OK: Result = [ErrorCode.NONE, null];
const invalid = (message: string): Result => [ErrorCode.INVALID_REQUEST, message];

test('AlterClientQuotas: users, client ids, ips, defaults and user+client-id; DescribeClientQuotas by exact name, default, type, strict', async () => {
  assert.deepEqual(await alter([['user', 'alice']], [['producer_byte_rate', 1024], ['consumer_byte_rate', 2048], ['request_percentage', 50]]), OK);
  assert.deepEqual(await alter([['user', 'alice'], ['client-id', 'app1']], [['producer_byte_rate', 100]], false, 0), OK);
  assert.deepEqual(await alter([['client-id', null]], [['consumer_byte_rate', 999]]), OK);
  assert.deepEqual(await alter([['ip', '10.0.0.1']], [['connection_creation_rate', 5]]), OK);
  assert.deepEqual(await alter([['user', null]], [['producer_byte_rate', 10]]), OK);
  // Double quotas may be fractional; an ip may be a name that resolves; the default ip is null.
  assert.deepEqual(await alter([['user', 'bob']], [['request_percentage', 1.5]]), OK);
  assert.deepEqual(await alter([['user', 'bob']], [['controller_mutation_rate', 1.5]]), OK);
  assert.deepEqual(await alter([['user', 'bob']], [['producer_byte_rate', 3]]), OK);
  assert.deepEqual(await alter([['ip', 'localhost']], [['connection_creation_rate', 3]]), OK);
  assert.deepEqual(await alter([['ip', null]], [['connection_creation_rate', 7]]), OK);
  // validateOnly checks and answers, and changes nothing.
  assert.deepEqual(await alter([['user', 'v']], [['producer_byte_rate', 3]], true), OK);
  assert.deepEqual(await describe([['user', 0, 'v']]), []);

  assert.deepEqual(await describe([['user', 0, 'alice']], true), [
    [[['user', 'alice']], [['consumer_byte_rate', 2048], ['request_percentage', 50], ['producer_byte_rate', 1024]]],
  ]);
  // Not strict: every entity with that user, whatever else it names.
  assert.deepEqual(await describe([['user', 0, 'alice']], false, 0), [
    [[['user', 'alice']], [['consumer_byte_rate', 2048], ['request_percentage', 50], ['producer_byte_rate', 1024]]],
    [[['client-id', 'app1'], ['user', 'alice']], [['producer_byte_rate', 100]]],
  ]);
  assert.deepEqual(await describe([['user', 0, 'alice'], ['client-id', 0, 'app1']], true), [
    [[['client-id', 'app1'], ['user', 'alice']], [['producer_byte_rate', 100]]],
  ]);
  assert.deepEqual(await describe([['client-id', 1]]), [[[['client-id', null]], [['consumer_byte_rate', 999]]]]);
  // "Specified" matches any entity of that type, the default one included (as Kafka's image does).
  assert.deepEqual(await describe([['user', 2]], true), [
    [[['user', 'alice']], [['consumer_byte_rate', 2048], ['request_percentage', 50], ['producer_byte_rate', 1024]]],
    [[['user', 'bob']], [['controller_mutation_rate', 1.5], ['request_percentage', 1.5], ['producer_byte_rate', 3]]],
    [[['user', null]], [['producer_byte_rate', 10]]],
  ]);
  assert.deepEqual(await describe([['ip', 1]], true), [[[['ip', null]], [['connection_creation_rate', 7]]]]);
  assert.deepEqual(await describe([['ip', 2]]), [
    [[['ip', 'localhost']], [['connection_creation_rate', 3]]],
    [[['ip', null]], [['connection_creation_rate', 7]]],
    [[['ip', '10.0.0.1']], [['connection_creation_rate', 5]]],
  ]);
});

test('AlterClientQuotas refuses keys, values, ips and entities as Kafka does, entity by entity', async () => {
  const cases: [Pairs, Ops, Result][] = [
    [[['user', 'bob']], [['foo', 10]], invalid('Invalid configuration key foo')],
    [[['user', 'bob']], [['producer_byte_rate', 0]], invalid('Quota producer_byte_rate must be greater than 0')],
    [[['user', 'bob']], [['producer_byte_rate', -1]], invalid('Quota producer_byte_rate must be greater than 0')],
    [[['user', 'bob']], [['producer_byte_rate', 1.5]], invalid('producer_byte_rate cannot be a fractional value.')],
    [[['user', 'bob']], [['producer_byte_rate', 1e30]], invalid('Proposed value for producer_byte_rate is too large for a LONG.')],
    [[['user', 'bob']], [['connection_creation_rate', 3]], invalid('Invalid configuration key connection_creation_rate')],
    [[['ip', '1.2.3.4']], [['producer_byte_rate', 3]], invalid('Invalid configuration key producer_byte_rate')],
    [[['ip', '1.2.3.4']], [['connection_creation_rate', 1.5]], invalid('connection_creation_rate cannot be a fractional value.')],
    [[['ip', '1.2.3.4']], [['connection_creation_rate', 3e9]], invalid('Proposed value for connection_creation_rate is too large for an INT.')],
    [[['ip', 'not an ip']], [['connection_creation_rate', 3]], invalid('not an ip is not a valid IP or resolvable host.')],
    [[['ip', '256.1.1.1']], [['connection_creation_rate', 3]], invalid('256.1.1.1 is not a valid IP or resolvable host.')],
    [[['ip', '1.2.3.4'], ['user', 'x']], [['connection_creation_rate', 3]],
      invalid('Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId')],
    [[], [['connection_creation_rate', 3]], invalid('Invalid empty client quota entity')],
    [[['foo', 'x']], [['producer_byte_rate', 3]], invalid('Unhandled client quota entity type: foo')],
    [[['user', '']], [['producer_byte_rate', 3]], invalid('Empty user not supported')],
    [[['ip', '']], [['producer_byte_rate', 3]], invalid('Empty ip not supported')],
    // A repeated key refuses its entity (Kafka's message is then replaced by the duplicate-entity one).
    [[['user', 'bob']], [['producer_byte_rate', 3], ['producer_byte_rate', 4]], invalid('Ignoring duplicate entity ClientQuotaEntity(entries={user=bob})')],
    // Removing a key that is not set is no error, whatever the key.
    [[['ip', '1.2.3.4']], [['bogus', null]], OK],
  ];
  for (const [entity, ops, expected] of cases) assert.deepEqual(await alter(entity, ops), expected, JSON.stringify([entity, ops]));
  // The entity answered is the request's in Kafka's map order; of two names of one type the last counts.
  const combined = await alterMany(client, [[[['ip', '1.2.3.4'], ['user', 'x']], [['connection_creation_rate', 3]]]]);
  assert.deepEqual(combined.entries[0]!.entity, entityData([['user', 'x'], ['ip', '1.2.3.4']]));
  const twoUsers = await alterMany(client, [[[['user', 'a1'], ['user', 'b1']], [['producer_byte_rate', 3]]]]);
  assert.deepEqual(twoUsers.entries, [{ errorCode: ErrorCode.NONE, errorMessage: null, entity: entityData([['user', 'b1']]) }]);
  assert.deepEqual(await describe([['user', 0, 'b1']]), [[[['user', 'b1']], [['producer_byte_rate', 3]]]]);
  assert.deepEqual(await describe([['user', 0, 'a1']]), []);
});

test('AlterClientQuotas: one result per entity in Kafka\'s order; a repeated entity is refused after its first alteration took effect', async () => {
  const many = await alterMany(client, [
    [[['user', 'carol']], [['producer_byte_rate', 5]]],
    [[['user', 'dave']], [['consumer_byte_rate', 6]]],
    [[['client-id', 'x'], ['user', 'erin']], [['request_percentage', 7]]],
    [[['user', 'carol']], [['consumer_byte_rate', 5]]],
  ]);
  assert.deepEqual(many.entries, [
    { errorCode: ErrorCode.NONE, errorMessage: null, entity: entityData([['client-id', 'x'], ['user', 'erin']]) },
    { errorCode: ErrorCode.NONE, errorMessage: null, entity: entityData([['user', 'dave']]) },
    { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Ignoring duplicate entity ClientQuotaEntity(entries={user=carol})', entity: entityData([['user', 'carol']]) },
  ]);
  assert.deepEqual(await describe([['user', 0, 'carol']]), [[[['user', 'carol']], [['producer_byte_rate', 5]]]]);
  // Removing the last quota of an entity removes the entity.
  assert.deepEqual(await alter([['user', 'dave']], [['consumer_byte_rate', null]]), OK);
  assert.deepEqual(await describe([['user', 0, 'dave']]), []);
});

test('DescribeClientQuotas refuses filters as Kafka does: top-level error, null entries', async () => {
  const cases: [[string, number, string?][], number, string][] = [
    [[['foo', 1]], ErrorCode.UNSUPPORTED_VERSION, 'Unsupported entity type foo'],
    [[['', 1]], ErrorCode.INVALID_REQUEST, 'Invalid empty entity type.'],
    [[['user', 0]], ErrorCode.INVALID_REQUEST, 'Request specified MATCH_TYPE_EXACT, but set match string to null.'],
    [[['user', 1, 'x']], ErrorCode.INVALID_REQUEST, 'Request specified MATCH_TYPE_DEFAULT, but also specified a match string.'],
    [[['user', 2, 'x']], ErrorCode.INVALID_REQUEST, 'Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.'],
    [[['user', 5]], ErrorCode.INVALID_REQUEST, 'Unknown match type 5'],
    [[['user', 2], ['user', 2]], ErrorCode.INVALID_REQUEST, 'Entity type user cannot appear more than once in the filter.'],
    [[['ip', 2], ['user', 2]], ErrorCode.INVALID_REQUEST,
      'Invalid entity filter component combination. IP filter component should not be used with user or clientId filter component.'],
  ];
  for (const [components, code, message] of cases) {
    const response = await describeRaw(client, components);
    assert.deepEqual([response.errorCode, response.errorMessage, response.entries], [code, message, null], JSON.stringify(components));
  }
});

test('DescribeClientQuotas without components lists every entity, in the order Kafka 4.3.1 lists them', async () => {
  const broker2 = await startTestBroker();
  const c = await RawClient.connect(broker2.port);
  try {
    // The reference broker's history (the tests above, condensed): the order depends on it, as Java HashMaps' does.
    const steps: [Pairs, Ops][] = [
      [[['user', 'alice']], [['producer_byte_rate', 1024], ['consumer_byte_rate', 2048], ['request_percentage', 50]]],
      [[['user', 'alice'], ['client-id', 'app1']], [['producer_byte_rate', 100]]],
      [[['client-id', null]], [['consumer_byte_rate', 999]]],
      [[['ip', '10.0.0.1']], [['connection_creation_rate', 5]]],
      [[['user', null]], [['producer_byte_rate', 10]]],
      [[['user', 'bob']], [['request_percentage', 1.5]]],
      [[['user', 'bob']], [['controller_mutation_rate', 1.5]]],
      [[['user', 'bob']], [['producer_byte_rate', 3]]],
      [[['ip', 'localhost']], [['connection_creation_rate', 3]]],
      [[['ip', null]], [['connection_creation_rate', 7]]],
    ];
    for (const step of steps) assert.equal((await alterMany(c, [step])).entries[0]!.errorCode, ErrorCode.NONE);
    await alterMany(c, [[[['user', 'carol']], [['producer_byte_rate', 5]]], [[['user', 'dave']], [['consumer_byte_rate', 6]]],
      [[['client-id', 'x'], ['user', 'erin']], [['request_percentage', 7]]], [[['user', 'carol']], [['consumer_byte_rate', 5]]]]);
    await alterMany(c, [[[['user', 'a'], ['user', 'b']], [['producer_byte_rate', 3]]]]);
    await alterMany(c, [[[['user', 'bob']], [['producer_byte_rate', 8]]], [[['user', 'bob']], [['consumer_byte_rate', 3]]]]);
    await alterMany(c, [[[['user', 'alice']], [['consumer_byte_rate', null], ['request_percentage', null]]]]);
    await alterMany(c, [[[['user', 'dave']], [['consumer_byte_rate', null]]]]);
    assert.deepEqual(await describe([], false, 1, c), [
      [[['ip', 'localhost']], [['connection_creation_rate', 3]]],
      [[['user', 'alice']], [['producer_byte_rate', 1024]]],
      [[['ip', null]], [['connection_creation_rate', 7]]],
      [[['client-id', 'x'], ['user', 'erin']], [['request_percentage', 7]]],
      [[['user', 'bob']], [['controller_mutation_rate', 1.5], ['request_percentage', 1.5], ['producer_byte_rate', 8]]],
      [[['client-id', 'app1'], ['user', 'alice']], [['producer_byte_rate', 100]]],
      [[['user', null]], [['producer_byte_rate', 10]]],
      [[['client-id', null]], [['consumer_byte_rate', 999]]],
      [[['ip', '10.0.0.1']], [['connection_creation_rate', 5]]],
      [[['user', 'b']], [['producer_byte_rate', 3]]],
      [[['user', 'carol']], [['producer_byte_rate', 5]]],
    ]);
  } finally {
    await c.close();
    await broker2.close();
  }
});

test('client quotas outlive a restart of the file engine; a damaged file stops start-up with one line', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-quotas-'));
  try {
    const settings = { 'log.dirs': dir, 'gregor.log.engine': 'file' };
    let first = await startTestBroker(settings);
    let c = await RawClient.connect(first.port);
    await alterMany(c, [[[['user', 'alice']], [['producer_byte_rate', 1024], ['request_percentage', 12.5]]], [[['ip', null]], [['connection_creation_rate', 9]]]]);
    await alterMany(c, [[[['user', 'alice'], ['client-id', null]], [['consumer_byte_rate', 2048]]]]);
    const before = await describe([], false, 1, c);
    await c.close();
    await first.close();

    first = await startTestBroker(settings);
    c = await RawClient.connect(first.port);
    assert.deepEqual(await describe([], false, 1, c), before);
    assert.equal(before.length, 3);
    await c.close();
    await first.close();

    assert.match(await readFile(join(dir, CLIENT_QUOTAS_FILE), 'utf8'), /"producer_byte_rate": "1024"/);
    await writeFile(join(dir, CLIENT_QUOTAS_FILE), '{"version":1,"entities":[{"entity":{"user":"a"},"quotas":{"producer_byte_rate":"x"}}]}');
    await assert.rejects(startTestBroker(settings),
      new RegExp(`^Error: ${join(dir, CLIENT_QUOTAS_FILE)}: entities\\[0\\]\\.quotas\\."producer_byte_rate" must be a number as text; fix or remove the file`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('an alteration that cannot be stored answers UNKNOWN_SERVER_ERROR and changes nothing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-quotas-'));
  const blocker = join(dir, `${CLIENT_QUOTAS_FILE}.tmp`);
  const b = await startTestBroker({ 'log.dirs': dir, 'gregor.log.engine': 'file' });
  const c = await RawClient.connect(b.port);
  try {
    // A directory where the file is written first: the save fails.
    await mkdir(blocker);
    const failed = await alterMany(c, [[[['user', 'alice']], [['producer_byte_rate', 1024]]]]);
    assert.deepEqual(failed.entries.map((e) => [e.errorCode, e.errorMessage]),
      [[ErrorCode.UNKNOWN_SERVER_ERROR, errorInfo(ErrorCode.UNKNOWN_SERVER_ERROR).message]]);
    assert.deepEqual(await describe([], false, 1, c), []);
    await rm(blocker, { recursive: true });
    assert.equal((await alterMany(c, [[[['user', 'alice']], [['producer_byte_rate', 1024]]]])).entries[0]!.errorCode, ErrorCode.NONE);
    assert.deepEqual(await describe([], false, 1, c), [[[['user', 'alice']], [['producer_byte_rate', 1024]]]]);
  } finally {
    await c.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  }
});
