// Confluent Schema Registry's REST API on gregor.schema.registry.listeners: each resource's answers, and each
// refusal with Confluent's HTTP status, error_code and message (its Errors class and Rest*Exception texts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestBroker } from '../server/broker-harness.js';
import type { Broker } from '../../src/server/broker.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';
let broker: Broker;
let base: string;

before(async () => {
  broker = await startTestBroker({ 'gregor.schema.registry.listeners': 'http://127.0.0.1:0' });
  base = `http://127.0.0.1:${broker.schemaRegistryAddresses[0]!.port}`;
});
after(() => broker.close());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown; type: string | null }> {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': CONTENT_TYPE, accept: CONTENT_TYPE },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The /schema endpoints answer a schema's text, which need not be JSON (a Protobuf schema).
  }
  return { status: response.status, body: parsed, type: response.headers.get('content-type') };
}

const error = (status: number, code: number, message: string) => ({ status, body: { error_code: code, message } });
const pick = (r: { status: number; body: unknown }) => ({ status: r.status, body: r.body });

const user = (fields: object[] = []) => JSON.stringify({ type: 'record', name: 'User', namespace: 'com.example', fields: [{ name: 'name', type: 'string' }, ...fields] });
/** Java Avro's compact form of user(): what Confluent stores and answers. */
const userCanonical = '{"type":"record","name":"User","namespace":"com.example","fields":[{"name":"name","type":"string"}]}';

test('register, look up and read back an Avro schema: ids, versions, the canonical text', async () => {
  const spaced = JSON.stringify(JSON.parse(user()), null, 2);
  assert.deepEqual(pick(await call('POST', '/subjects/users-value/versions', { schema: spaced })), { status: 200, body: { id: 1 } });
  // The same schema again, and under another subject: the same id.
  assert.deepEqual((await call('POST', '/subjects/users-value/versions', { schema: user() })).body, { id: 1 });
  assert.deepEqual((await call('POST', '/subjects/other-value/versions', { schema: user() })).body, { id: 1 });
  const latest = await call('GET', '/subjects/users-value/versions/latest');
  assert.equal(latest.type?.split(';')[0], CONTENT_TYPE);
  assert.deepEqual(latest.body, { subject: 'users-value', version: 1, id: 1, schema: userCanonical });
  assert.deepEqual((await call('GET', '/subjects/users-value/versions/1/schema')).body, JSON.parse(userCanonical));
  assert.deepEqual((await call('GET', '/schemas/ids/1')).body, { schema: userCanonical });
  assert.deepEqual((await call('GET', '/schemas/ids/1/versions')).body, [{ subject: 'other-value', version: 1 }, { subject: 'users-value', version: 1 }]);
  assert.deepEqual((await call('GET', '/schemas/ids/1/subjects')).body, ['other-value', 'users-value']);
  assert.deepEqual((await call('GET', '/subjects')).body, ['other-value', 'users-value']);
  assert.deepEqual((await call('GET', '/subjects?subjectPrefix=users')).body, ['users-value']);
  assert.deepEqual((await call('GET', '/schemas/types')).body, ['JSON', 'PROTOBUF', 'AVRO']);
  assert.deepEqual((await call('POST', '/subjects/users-value', { schema: spaced })).body, { subject: 'users-value', version: 1, id: 1, schema: userCanonical });
  // A compatible change is version 2 with a new id.
  assert.deepEqual((await call('POST', '/subjects/users-value/versions', { schema: user([{ name: 'age', type: 'int', default: 0 }]) })).body, { id: 2 });
  assert.deepEqual((await call('GET', '/subjects/users-value/versions')).body, [1, 2]);
  assert.equal(((await call('GET', '/subjects/users-value/versions/-1')).body as { version: number }).version, 2);
});

test("refusals: Confluent's status, error_code and message", async () => {
  assert.deepEqual(pick(await call('GET', '/subjects/nobody/versions')), error(404, 40401, "Subject 'nobody' not found."));
  assert.deepEqual(pick(await call('GET', '/subjects/users-value/versions/9')), error(404, 40402, 'Version 9 not found.'));
  assert.deepEqual(pick(await call('GET', '/schemas/ids/99')), error(404, 40403, 'Schema 99 not found'));
  assert.deepEqual(pick(await call('POST', '/subjects/users-value', { schema: user([{ name: 'x', type: 'long' }]) })), error(404, 40403, 'Schema not found'));
  assert.deepEqual(pick(await call('GET', '/subjects/users-value/versions/0')), error(422, 42202,
    'The specified version \'0\' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"'));
  assert.deepEqual(pick(await call('GET', '/subjects/users-value/versions/abc')), error(422, 42202,
    'The specified version \'abc\' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"'));
  const invalid = await call('POST', '/subjects/bad/versions', { schema: '{"type":"record","name":"R","fields":[{"name":"f","type":"nosuchtype"}]}' });
  assert.equal(invalid.status, 422);
  assert.equal((invalid.body as { error_code: number }).error_code, 42201);
  assert.match((invalid.body as { message: string }).message, /^Invalid schema of type AVRO, details: /);
  assert.deepEqual(pick(await call('POST', '/subjects/bad/versions', { schema: '{}', schemaType: 'XML' })), error(422, 42201, 'Invalid schema type XML'));
  assert.deepEqual(pick(await call('PUT', '/config', { compatibility: 'SIDEWAYS' })), error(422, 42203,
    'Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive'));
  assert.deepEqual(pick(await call('PUT', '/mode', { mode: 'SOMETIMES' })), error(422, 42204, 'Invalid mode. Valid values are READWRITE, READONLY, IMPORT and FORWARD.'));
  assert.deepEqual(pick(await call('GET', '/no/such/path')), error(404, 404, 'HTTP 404 Not Found'));
  assert.deepEqual(pick(await call('POST', '/subjects/__GLOBAL/versions', { schema: '"int"' })), error(422, 42208, "The specified subject '__GLOBAL' is not a valid."));
});

test('an incompatible schema is refused with 409, error_code 40901 and the details Confluent gives', async () => {
  const refused = await call('POST', '/subjects/users-value/versions', { schema: user([{ name: 'email', type: 'string' }]) });
  assert.equal(refused.status, 409);
  const body = refused.body as { error_code: number; message: string };
  assert.equal(body.error_code, 40901);
  assert.equal(body.message, 'Schema being registered is incompatible with an earlier schema for subject "users-value", details: [' +
    "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'email' at path '/fields/1' in the new schema has no default value and is missing in the old schema', additionalInfo:'email'}, " +
    '{oldSchemaVersion: 2}, ' +
    `{oldSchema: '{"type":"record","name":"User","namespace":"com.example","fields":[{"name":"name","type":"string"},{"name":"age","type":"int","default":0}]}'}, ` +
    "{validateFields: 'false', compatibility: 'BACKWARD'}]");
  // The compatibility resource says the same without registering.
  const verbose = await call('POST', '/compatibility/subjects/users-value/versions/latest?verbose=true', { schema: user([{ name: 'email', type: 'string' }]) });
  assert.equal((verbose.body as { is_compatible: boolean }).is_compatible, false);
  assert.equal((verbose.body as { messages: string[] }).messages.length, 4);
  assert.deepEqual((await call('POST', '/compatibility/subjects/users-value/versions/latest', { schema: user([{ name: 'email', type: 'string', default: '' }]) })).body, { is_compatible: true });
  assert.deepEqual((await call('POST', '/compatibility/subjects/users-value/versions', { schema: user() })).body, { is_compatible: true });
});

test('compatibility levels: global and per subject, defaultToGlobal, 40408, deleting a subject\'s', async () => {
  assert.deepEqual((await call('GET', '/config')).body, { compatibilityLevel: 'BACKWARD' });
  assert.deepEqual(pick(await call('GET', '/config/users-value')), error(404, 40408, "Subject 'users-value' does not have subject-level compatibility configured"));
  assert.deepEqual((await call('GET', '/config/users-value?defaultToGlobal=true')).body, { compatibilityLevel: 'BACKWARD' });
  assert.deepEqual((await call('PUT', '/config/users-value', { compatibility: 'none' })).body, { compatibility: 'NONE' });
  assert.deepEqual((await call('GET', '/config/users-value')).body, { compatibilityLevel: 'NONE' });
  // NONE: the change refused above registers.
  assert.deepEqual((await call('POST', '/subjects/users-value/versions', { schema: user([{ name: 'email', type: 'string' }]) })).body, { id: 3 });
  assert.deepEqual((await call('DELETE', '/config/users-value')).body, { compatibilityLevel: 'NONE' });
  assert.deepEqual(pick(await call('DELETE', '/config/users-value')), error(404, 40401, "Subject 'users-value' not found."));
  assert.deepEqual((await call('PUT', '/config', { compatibility: 'FULL_TRANSITIVE' })).body, { compatibility: 'FULL_TRANSITIVE' });
  assert.deepEqual((await call('GET', '/config')).body, { compatibilityLevel: 'FULL_TRANSITIVE' });
  assert.deepEqual((await call('PUT', '/config', { compatibility: 'BACKWARD' })).body, { compatibility: 'BACKWARD' });
});

test('modes: READONLY refuses writes (42205), IMPORT registers at a given id and version', async () => {
  assert.deepEqual((await call('GET', '/mode')).body, { mode: 'READWRITE' });
  assert.deepEqual((await call('PUT', '/mode/users-value', { mode: 'READONLY' })).body, { mode: 'READONLY' });
  assert.deepEqual(pick(await call('POST', '/subjects/users-value/versions', { schema: user([{ name: 'z', type: 'int', default: 1 }]) })),
    error(422, 42205, 'Subject users-value in context  is in read-only mode'));
  assert.deepEqual(pick(await call('DELETE', '/subjects/users-value/versions/1')), error(422, 42205, 'Subject users-value in context  is in read-only mode'));
  assert.deepEqual((await call('DELETE', '/mode/users-value')).body, { mode: 'READONLY' });
  assert.deepEqual(pick(await call('GET', '/mode/users-value')), error(404, 40409, "Subject 'users-value' does not have subject-level mode configured"));
  assert.deepEqual(pick(await call('PUT', '/mode', { mode: 'IMPORT' })), error(422, 42205, 'Cannot import since found existing subjects'));
  assert.deepEqual((await call('PUT', '/mode/imported', { mode: 'IMPORT' })).body, { mode: 'IMPORT' });
  assert.deepEqual((await call('POST', '/subjects/imported/versions', { schema: '"string"', id: 100, version: 5 })).body, { id: 100 });
  assert.deepEqual((await call('GET', '/subjects/imported/versions/5')).body, { subject: 'imported', version: 5, id: 100, schema: '"string"' });
  assert.deepEqual(pick(await call('POST', '/subjects/imported/versions', { schema: '"string"' })), error(422, 42205, 'Subject imported in context  is not in read-write mode'));
  assert.deepEqual((await call('PUT', '/mode/imported', { mode: 'READWRITE' })).body, { mode: 'READWRITE' });
  // Ids go on from the highest one seen.
  assert.deepEqual((await call('POST', '/subjects/after-import/versions', { schema: '"bytes"' })).body, { id: 101 });
});

test('soft and hard deletes: 40404/40405/40406/40407, deleted=true, and a re-registration', async () => {
  await call('POST', '/subjects/gone/versions', { schema: '"int"' });
  await call('POST', '/subjects/gone/versions', { schema: '"long"' });
  assert.deepEqual(pick(await call('DELETE', '/subjects/gone/versions/1?permanent=true')), error(404, 40407, "Subject 'gone' Version 1 was not deleted first before being permanently deleted"));
  assert.deepEqual((await call('DELETE', '/subjects/gone/versions/1')).body, 1);
  assert.deepEqual(pick(await call('DELETE', '/subjects/gone/versions/1')), error(404, 40406, "Subject 'gone' Version 1 was soft deleted.Set permanent=true to delete permanently"));
  assert.deepEqual((await call('GET', '/subjects/gone/versions')).body, [2]);
  assert.deepEqual((await call('GET', '/subjects/gone/versions?deleted=true')).body, [1, 2]);
  assert.deepEqual(pick(await call('GET', '/subjects/gone/versions/1')), error(404, 40402, 'Version 1 not found.'));
  assert.deepEqual((await call('GET', '/subjects/gone/versions/1?deleted=true')).body, { subject: 'gone', version: 1, id: 102, schema: '"int"' });
  assert.deepEqual((await call('DELETE', '/subjects/gone/versions/1?permanent=true')).body, 1);
  assert.deepEqual(pick(await call('DELETE', '/subjects/gone?permanent=true')), error(404, 40405, "Subject 'gone' was not deleted first before being permanently deleted"));
  assert.deepEqual((await call('DELETE', '/subjects/gone')).body, [2]);
  assert.deepEqual(pick(await call('DELETE', '/subjects/gone')), error(404, 40404, "Subject 'gone' was soft deleted.Set permanent=true to delete permanently"));
  assert.equal(((await call('GET', '/subjects')).body as string[]).includes('gone'), false);
  assert.equal(((await call('GET', '/subjects?deleted=true')).body as string[]).includes('gone'), true);
  // A soft-deleted subject registers again from the next version, keeping the schema's id.
  assert.deepEqual((await call('POST', '/subjects/gone/versions', { schema: '"long"' })).body, { id: 103 });
  assert.deepEqual((await call('GET', '/subjects/gone/versions')).body, [3]);
  await call('DELETE', '/subjects/gone');
  assert.deepEqual((await call('DELETE', '/subjects/gone?permanent=true')).body, [3]);
  assert.deepEqual(pick(await call('GET', '/subjects/gone/versions?deleted=true')), error(404, 40401, "Subject 'gone' not found."));
});

test('schema references: resolved when parsing, referencedby, and a referenced version cannot be deleted', async () => {
  const address = JSON.stringify({ type: 'record', name: 'Address', namespace: 'com.example', fields: [{ name: 'city', type: 'string' }] });
  const addressId = ((await call('POST', '/subjects/address/versions', { schema: address })).body as { id: number }).id;
  const person = JSON.stringify({ type: 'record', name: 'Person', namespace: 'com.example', fields: [{ name: 'home', type: 'Address' }] });
  const references = [{ name: 'com.example.Address', subject: 'address', version: 1 }];
  const personId = ((await call('POST', '/subjects/person/versions', { schema: person, references })).body as { id: number }).id;
  assert.notEqual(personId, addressId);
  assert.deepEqual((await call('GET', `/schemas/ids/${personId}`)).body, {
    references, schema: '{"type":"record","name":"Person","namespace":"com.example","fields":[{"name":"home","type":"Address"}]}',
  });
  assert.deepEqual((await call('GET', '/subjects/address/versions/1/referencedby')).body, [personId]);
  assert.deepEqual(pick(await call('DELETE', '/subjects/address/versions/1')), error(422, 42206,
    'One or more references exist to the schema {magic=1,keytype=SCHEMA,subject=address,version=1}.'));
  const missing = await call('POST', '/subjects/person2/versions', { schema: person });
  assert.equal((missing.body as { error_code: number }).error_code, 42201);
});

test('normalize: the normalized text is stored, and a differently written equal schema finds it', async () => {
  const written = JSON.stringify({ namespace: 'n', fields: [{ type: 'int', name: 'b' }, { name: 'a', type: 'string' }], name: 'R', type: 'record' });
  const { id } = (await call('POST', '/subjects/normal/versions?normalize=true', { schema: written })).body as { id: number };
  assert.deepEqual((await call('GET', '/subjects/normal/versions/1')).body, {
    subject: 'normal', version: 1, id,
    schema: '{"name":"n.R","type":"record","fields":[{"name":"b","type":"int","order":"ASCENDING"},{"name":"a","type":"string","order":"ASCENDING"}]}',
  });
  const reordered = JSON.stringify({ type: 'record', name: 'R', namespace: 'n', fields: [{ name: 'b', type: 'int' }, { name: 'a', type: 'string' }] });
  assert.equal(((await call('POST', '/subjects/normal?normalize=true', { schema: reordered })).body as { id: number }).id, id);
  assert.deepEqual((await call('POST', '/subjects/normal/versions?normalize=true', { schema: reordered })).body, { id });
});

test('metadata and rule sets: stored and answered in Confluent\'s form, part of a schema\'s identity, kept by the next version', async () => {
  const owner = (name: string) => ({ properties: { owner: name } });
  const rule = { name: 'short', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'size(message.name) < 9', tags: ['PII', 'A'] };
  const first = (await call('POST', '/subjects/contract-value/versions', { schema: user(), metadata: owner('bob'), ruleSet: { domainRules: [rule] } })).body as { id: number };
  const ruleBack = { name: 'short', kind: 'CONDITION', mode: 'WRITE', type: 'CEL', tags: ['A', 'PII'], expr: 'size(message.name) < 9', disabled: false };
  assert.deepEqual((await call('GET', '/subjects/contract-value/versions/1')).body, {
    subject: 'contract-value', version: 1, id: first.id, metadata: owner('bob'), ruleSet: { domainRules: [ruleBack] }, schema: userCanonical,
  });
  assert.deepEqual((await call('GET', `/schemas/ids/${first.id}`)).body, { metadata: owner('bob'), ruleSet: { domainRules: [ruleBack] }, schema: userCanonical });
  // The same text with other metadata is another schema: a new version and a new id.
  const second = (await call('POST', '/subjects/contract-value/versions', { schema: user(), metadata: owner('ann') })).body as { id: number };
  assert.notEqual(second.id, first.id);
  // Registering it again finds it; a change without metadata keeps the latest version's (and its rule set).
  assert.deepEqual((await call('POST', '/subjects/contract-value/versions', { schema: user(), metadata: owner('ann') })).body, second);
  await call('POST', '/subjects/contract-value/versions', { schema: user([{ name: 'age', type: 'int', default: 0 }]) });
  const third = (await call('GET', '/subjects/contract-value/versions/3')).body as Record<string, unknown>;
  assert.deepEqual([third['metadata'], third['ruleSet']], [owner('ann'), { domainRules: [ruleBack] }]);
  // A body with metadata and no schema registers the latest schema again with it; an explicit version sets
  // confluent:version.
  await call('POST', '/subjects/contract-value/versions', { version: 4, metadata: owner('eve') });
  const fourth = (await call('GET', '/subjects/contract-value/versions/4')).body as Record<string, unknown>;
  assert.deepEqual([fourth['schema'], fourth['metadata']], [third['schema'], { properties: { 'confluent:version': '4', owner: 'eve' } }]);
  // A lookup without metadata finds the version holding the latest version's.
  assert.equal(((await call('POST', '/subjects/contract-value', { schema: user([{ name: 'age', type: 'int', default: 0 }]) })).body as { version: number }).version, 4);
  assert.equal(((await call('POST', '/subjects/contract-value', { schema: user(), metadata: owner('bob') })).body as { version: number }).version, 1);
  assert.deepEqual(pick(await call('POST', '/subjects/contract-value/versions', { schema: user(), metadata: { properties: { n: 1 } } })), error(422, 422, 'metadata.properties must be a map of strings'));
  assert.deepEqual(pick(await call('POST', '/subjects/contract-value/versions', { schema: user(), ruleSet: { domainRules: [{ kind: 'MAYBE' }] } })), error(422, 422, 'Invalid rule kind MAYBE'));
  // A rule set Confluent's RuleSet.validate refuses: 42210 with its reason.
  const refused = async (ruleSet: object) => pick(await call('POST', '/subjects/contract-value/versions', { schema: user(), ruleSet }));
  assert.deepEqual(await refused({ domainRules: [rule, rule] }), error(422, 42210, "Found rule with duplicate name 'short'"));
  assert.deepEqual(await refused({ domainRules: [{ ...rule, mode: 'UPGRADE' }] }), error(422, 42210, 'Domain rules can only be WRITE, READ, WRITEREAD'));
  assert.deepEqual(await refused({ migrationRules: [{ name: 'up', mode: 'UPGRADE' }] }), error(422, 42210, 'Missing rule type'));
  assert.deepEqual(await refused({ domainRules: [{ ...rule, name: '9lives' }] }), error(422, 42210, 'Illegal initial character in rule name: 9lives'));
  assert.deepEqual(pick(await call('PUT', '/config/contract-value', { defaultRuleSet: { domainRules: [{ ...rule, onFailure: 'ERROR,NONE' }] } })),
    error(422, 42210, 'Multiple actions only valid with WRITEREAD and UPDOWN'));
});

test("a subject's config: default and override metadata, a compatibility group, reserved fields (validateFields)", async () => {
  const rec = (fields: object[]) => JSON.stringify({ type: 'record', name: 'Acct', fields });
  const put = await call('PUT', '/config/acct-value', {
    compatibility: 'BACKWARD', validateFields: true, compatibilityGroup: 'major',
    defaultMetadata: { properties: { owner: 'team-a' } }, overrideMetadata: { properties: { tier: 'gold' } },
  });
  assert.deepEqual(put.body, {
    validateFields: true, compatibility: 'BACKWARD', compatibilityGroup: 'major',
    defaultMetadata: { properties: { owner: 'team-a' } }, overrideMetadata: { properties: { tier: 'gold' } },
  });
  assert.deepEqual((await call('GET', '/config/acct-value')).body, {
    validateFields: true, compatibilityLevel: 'BACKWARD', compatibilityGroup: 'major',
    defaultMetadata: { properties: { owner: 'team-a' } }, overrideMetadata: { properties: { tier: 'gold' } },
  });
  // The defaults go under the given metadata, the overrides over it.
  await call('POST', '/subjects/acct-value/versions', { schema: rec([{ name: 'a', type: 'string' }]), metadata: { properties: { major: '1', owner: 'me', tier: 'x', 'confluent:reserved': 'ssn' } } });
  assert.deepEqual(((await call('GET', '/subjects/acct-value/versions/1')).body as { metadata: unknown }).metadata,
    { properties: { 'confluent:reserved': 'ssn', major: '1', owner: 'me', tier: 'gold' } });
  // A reserved field may not be a field, nor leave the metadata.
  const reservedUsed = await call('POST', '/subjects/acct-value/versions', { schema: rec([{ name: 'a', type: 'string' }, { name: 'ssn', type: 'string', default: '' }]) });
  assert.deepEqual(pick(reservedUsed), error(409, 40901, 'Schema being registered is incompatible with an earlier schema for subject "acct-value", details: ' +
    "[The new schema has field that conflicts with the reserved field ssn., {validateFields: 'true', compatibility: 'BACKWARD'}]"));
  const reservedDropped = await call('POST', '/subjects/acct-value/versions', { schema: rec([{ name: 'a', type: 'string' }]), metadata: { properties: { major: '1' } } });
  assert.equal((reservedDropped.body as { message: string }).message.includes("The new schema has reserved field ssn removed from its metadata which is present in the old schema's metadata."), true);
  // Another value of the group's property is checked against none of the other group: an incompatible change passes.
  const nextMajor = await call('POST', '/subjects/acct-value/versions', { schema: rec([{ name: 'b', type: 'int' }]), metadata: { properties: { major: '2', 'confluent:reserved': 'ssn' } } });
  assert.equal(nextMajor.status, 200);
  assert.equal((await call('POST', '/subjects/acct-value/versions', { schema: rec([{ name: 'c', type: 'int' }]), metadata: { properties: { major: '2', 'confluent:reserved': 'ssn' } } })).status, 409);
});

test('compatibilityPolicy LENIENT lets a JSON schema add an optional property to an open content model', async () => {
  const open = (properties: object) => JSON.stringify({ type: 'object', properties });
  await call('POST', '/subjects/lenient-value/versions', { schemaType: 'JSON', schema: open({ a: { type: 'string' } }) });
  const added = { schemaType: 'JSON', schema: open({ a: { type: 'string' }, b: { type: 'string' } }) };
  assert.deepEqual((await call('POST', '/compatibility/subjects/lenient-value/versions/latest', added)).body, { is_compatible: false });
  assert.deepEqual((await call('PUT', '/config/lenient-value', { compatibilityPolicy: 'lenient' })).body, { compatibilityPolicy: 'LENIENT' });
  assert.deepEqual((await call('POST', '/compatibility/subjects/lenient-value/versions/latest', added)).body, { is_compatible: true });
  assert.deepEqual(pick(await call('PUT', '/config/lenient-value', { compatibilityPolicy: 'LOOSE' })), error(422, 422, 'Invalid compatibility policy. Valid values are STRICT, LENIENT and LOGICAL'));
});

test('contexts: a :.ctx: subject numbers its ids in its context, /contexts lists it, references resolve within it', async () => {
  const inCtx = (await call('POST', '/subjects/:.team:orders-value/versions', { schema: '"long"' })).body as { id: number };
  assert.deepEqual(inCtx, { id: 1 });
  // Id 1 of the default context is another schema; ?subject= reads the id in the subject's context.
  assert.deepEqual((await call('GET', '/schemas/ids/1?subject=:.team:orders-value')).body, { schema: '"long"' });
  assert.deepEqual((await call('GET', '/schemas/ids/1?subject=:.team:')).body, { schema: '"long"' });
  assert.notDeepEqual((await call('GET', '/schemas/ids/1')).body, { schema: '"long"' });
  assert.deepEqual((await call('GET', '/schemas/ids/1/versions?subject=:.team:')).body, [{ subject: ':.team:orders-value', version: 1 }]);
  assert.deepEqual((await call('GET', '/contexts')).body, ['.', '.team']);
  // The same schema in the context keeps its id; another takes the context's next one.
  assert.deepEqual((await call('POST', '/subjects/:.team:other-value/versions', { schema: '"long"' })).body, { id: 1 });
  assert.deepEqual((await call('POST', '/subjects/:.team:other-value/versions', { schema: '["null","long"]' })).body, { id: 2 });
  const subjects = (await call('GET', '/subjects')).body as string[];
  assert.ok(subjects.includes(':.team:orders-value') && subjects.includes('users-value'));
  assert.deepEqual((await call('GET', '/subjects?subjectPrefix=:.team:')).body, [':.team:orders-value', ':.team:other-value']);
  // `:.:name` is the default context's `name`.
  assert.deepEqual(((await call('GET', '/subjects/:.:users-value/versions/1')).body as { subject: string }).subject, 'users-value');
  // A reference without a context is to a subject of the referencing subject's context.
  const address = JSON.stringify({ type: 'record', name: 'Address', fields: [{ name: 'city', type: 'string' }] });
  await call('POST', '/subjects/:.team:address/versions', { schema: address });
  const person = JSON.stringify({ type: 'record', name: 'Person', fields: [{ name: 'home', type: 'Address' }] });
  const registered = await call('POST', '/subjects/:.team:person-value/versions', { schema: person, references: [{ name: 'Address', subject: 'address', version: 1 }] });
  assert.equal(registered.status, 200);
  assert.deepEqual((await call('GET', '/subjects/:.team:address/versions/1/referencedby')).body, [(registered.body as { id: number }).id]);
  // A context's config and mode (`:.team:`) stand above its subjects, in place of the global ones.
  assert.deepEqual((await call('PUT', '/config/:.team:', { compatibility: 'NONE' })).body, { compatibility: 'NONE' });
  assert.equal((await call('POST', '/subjects/:.team:levels/versions', { schema: '"int"' })).status, 200);
  assert.equal((await call('POST', '/subjects/:.team:levels/versions', { schema: '"string"' })).status, 200);
  assert.deepEqual((await call('GET', '/config/:.team:levels?defaultToGlobal=true')).body, { compatibilityLevel: 'NONE' });
  await call('PUT', '/mode/:.team:', { mode: 'READONLY' });
  assert.deepEqual((await call('GET', '/mode/:.team:levels?defaultToGlobal=true')).body, { mode: 'READONLY' });
  assert.deepEqual((await call('GET', '/mode/users-value?defaultToGlobal=true')).body, { mode: 'READWRITE' });
  await call('DELETE', '/mode/:.team:');
  assert.deepEqual(pick(await call('PUT', '/mode/:.team:', { mode: 'IMPORT' })), error(422, 42205, 'Cannot import since found existing subjects'));
  // The same API under /contexts/{context}: names without a context are taken in it.
  assert.deepEqual((await call('GET', '/contexts/.team/subjects')).body, [':.team:address', ':.team:levels', ':.team:orders-value', ':.team:other-value', ':.team:person-value']);
  assert.equal(((await call('GET', '/contexts/.team/subjects/orders-value/versions/1')).body as { subject: string }).subject, ':.team:orders-value');
  assert.deepEqual((await call('GET', '/contexts/.team/schemas/ids/1')).body, { schema: '"long"' });
  assert.deepEqual((await call('GET', '/contexts/.team/config')).body, { compatibilityLevel: 'NONE' });
  assert.deepEqual((await call('GET', '/contexts/:.:/subjects/users-value/versions/1')).body, (await call('GET', '/subjects/users-value/versions/1')).body);
  // A context with subjects cannot be deleted; an emptied one can, and is listed no more.
  assert.deepEqual(pick(await call('DELETE', '/contexts/:.team:')), error(422, 42211, "The specified context ':.team:' is not empty."));
  await call('POST', '/subjects/:.gone:x/versions', { schema: '"int"' });
  await call('DELETE', '/subjects/:.gone:x');
  await call('DELETE', '/subjects/:.gone:x?permanent=true');
  assert.deepEqual((await call('GET', '/contexts')).body, ['.', '.gone', '.team']);
  assert.equal((await call('DELETE', '/contexts/.gone')).status, 204);
  assert.deepEqual((await call('GET', '/contexts')).body, ['.', '.team']);
  await call('PUT', '/mode/:.team:orders-value', { mode: 'READONLY' });
  assert.deepEqual(pick(await call('POST', '/subjects/:.team:orders-value/versions', { schema: '"int"' })), error(422, 42205, 'Subject :.team:orders-value in context :.team: is in read-only mode'));
});

test('content types: application/json and no accept header are answered too; a bad JSON body is 400', async () => {
  const response = await fetch(`${base}/subjects`, { headers: { accept: 'application/json' } });
  assert.equal(response.headers.get('content-type')?.split(';')[0], 'application/json');
  const plain = await fetch(`${base}/subjects/plain/versions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ schema: '"float"' }) });
  assert.equal(plain.status, 200);
  const bad = await call('POST', '/subjects/plain/versions', '{not json');
  assert.equal(bad.status, 400);
});

test('the HTTP listener serves the same API under /schema-registry', async () => {
  const { httpServer } = await import('../../src/http/lazy-start.js');
  const withHttp = await startTestBroker({ 'gregor.http.listeners': 'http://127.0.0.1:0' }, { httpServer });
  try {
    const url = `http://127.0.0.1:${withHttp.httpAddresses[0]!.port}/schema-registry`;
    const registered = await fetch(`${url}/subjects/over-http/versions`, { method: 'POST', headers: { 'content-type': CONTENT_TYPE }, body: JSON.stringify({ schema: '"string"' }) });
    assert.deepEqual(await registered.json(), { id: 1 });
    assert.deepEqual(await (await fetch(`${url}/subjects`)).json(), ['over-http']);
    const missing = await fetch(`${url}/subjects/none/versions`);
    assert.deepEqual({ status: missing.status, body: await missing.json() }, { status: 404, body: { error_code: 40401, message: "Subject 'none' not found." } });
    // The registry's own port is not bound unless asked.
    assert.deepEqual(withHttp.schemaRegistryAddresses, []);
  } finally {
    await withHttp.close();
  }
});
