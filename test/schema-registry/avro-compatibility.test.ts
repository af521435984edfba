// Avro compatibility case by case, as Confluent's documentation lists what each level allows ("Compatibility
// types": changes allowed, and which schemas each is checked against): for each level a change that must pass and
// one that must fail, with Avro's schema-resolution rules underneath (defaults, promotions, enums, unions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { avroProvider } from '../../src/schema-registry/avro/avro-schema.js';
import { incompatibilities, type CompatibilityLevel } from '../../src/schema-registry/compatibility.js';

const record = (fields: object[], name = 'User') => JSON.stringify({ type: 'record', name, fields });
const a = { name: 'a', type: 'string' };
const bRequired = { name: 'b', type: 'int' };
const bOptional = { name: 'b', type: 'int', default: 0 };

/** The messages of registering `next` after `previous` (oldest first) at `level`. */
function check(level: CompatibilityLevel, previous: string[], next: string): string[] {
  return incompatibilities(level, avroProvider.parse(next, []), previous.map((text, i) => ({ schema: avroProvider.parse(text, []), version: i + 1 })));
}

const cases: { level: CompatibilityLevel; change: string; previous: string[]; pass: string; fail: string }[] = [
  { level: 'BACKWARD', change: 'delete a field / add a field without a default', previous: [record([a, bRequired])], pass: record([a]), fail: record([a, bRequired, { name: 'c', type: 'long' }]) },
  { level: 'BACKWARD', change: 'add an optional field / promote long to int', previous: [record([a, { name: 'n', type: 'int' }])], pass: record([a, { name: 'n', type: 'long' }, bOptional]), fail: record([a, { name: 'n', type: 'string' }]) },
  { level: 'BACKWARD_TRANSITIVE', change: 'checked against every earlier version', previous: [record([a]), record([a, bOptional])], pass: record([a, bOptional, { name: 'c', type: 'int', default: 1 }]), fail: record([a, bRequired]) },
  { level: 'FORWARD', change: 'add a field / delete a field without a default', previous: [record([a, bRequired])], pass: record([a, bRequired, { name: 'c', type: 'long' }]), fail: record([a]) },
  { level: 'FORWARD', change: 'delete an optional field / add an enum symbol', previous: [record([a, bOptional, { name: 'e', type: { type: 'enum', name: 'E', symbols: ['X'] } }])], pass: record([a, { name: 'e', type: { type: 'enum', name: 'E', symbols: ['X'] } }]), fail: record([a, bOptional, { name: 'e', type: { type: 'enum', name: 'E', symbols: ['X', 'Y'] } }]) },
  { level: 'FORWARD_TRANSITIVE', change: 'checked against every earlier version', previous: [record([a, bRequired]), record([a, bRequired, { name: 'c', type: 'int', default: 0 }])], pass: record([a, bRequired]), fail: record([a, { name: 'c', type: 'int', default: 0 }]) },
  { level: 'FULL', change: 'add or delete an optional field / add a required field', previous: [record([a, bOptional])], pass: record([a, { name: 'c', type: ['null', 'string'], default: null }]), fail: record([a, bOptional, { name: 'c', type: 'string' }]) },
  { level: 'FULL', change: 'a required field deleted', previous: [record([a, bRequired])], pass: record([a, bRequired]), fail: record([a]) },
  { level: 'FULL_TRANSITIVE', change: 'checked both ways against every earlier version', previous: [record([a, bRequired]), record([a, bRequired, { name: 'c', type: 'int', default: 0 }])], pass: record([a, bRequired, { name: 'c', type: 'int', default: 5 }]), fail: record([a, { name: 'c', type: 'int', default: 0 }]) },
  { level: 'NONE', change: 'any change', previous: [record([a])], pass: record([{ name: 'z', type: 'bytes' }]), fail: '' },
];

for (const c of cases) {
  test(`avro ${c.level}: ${c.change}`, () => {
    assert.deepEqual(check(c.level, c.previous, c.pass), []);
    if (c.fail !== '') assert.notDeepEqual(check(c.level, c.previous, c.fail), []);
  });
}

test('avro BACKWARD refusal: Confluent\'s difference, the old version and schema, the level', () => {
  const old = record([a]);
  assert.deepEqual(check('BACKWARD', [old], record([a, bRequired])), [
    "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'b' at path '/fields/1' in the new schema has no default value and is missing in the old schema', additionalInfo:'b'}",
    '{oldSchemaVersion: 1}',
    `{oldSchema: '${old}'}`,
    "{validateFields: 'false', compatibility: 'BACKWARD'}",
  ]);
});

test('avro resolution: type mismatch, enum symbols, union branches, names, fixed sizes, as Avro reports them', () => {
  const typeChange = check('BACKWARD', [record([{ name: 'n', type: 'long' }])], record([{ name: 'n', type: 'int' }]));
  assert.equal(typeChange[0], "{errorType:'TYPE_MISMATCH', description:'The type (path '/fields/0/type') of a field in the new schema does not match with the old schema', additionalInfo:'reader type: INT not compatible with writer type: LONG'}");
  const e = (symbols: string[], extra = {}) => record([{ name: 'e', type: { type: 'enum', name: 'E', symbols, ...extra } }]);
  assert.equal(check('BACKWARD', [e(['A', 'B', 'C'])], e(['A']))[0],
    "{errorType:'MISSING_ENUM_SYMBOLS', description:'The new schema is missing enum symbols '[B, C]' at path '/fields/0/type/symbols' in the old schema', additionalInfo:'[B, C]'}");
  // An enum default lets a reader take symbols it lacks.
  assert.deepEqual(check('BACKWARD', [e(['A', 'B'])], e(['A'], { default: 'A' })), []);
  assert.equal(check('BACKWARD', [record([{ name: 'u', type: ['null', 'string', 'int'] }])], record([{ name: 'u', type: ['null', 'string'] }]))[0],
    "{errorType:'MISSING_UNION_BRANCH', description:'The new schema is missing a type inside a union field at path '/fields/0/type/2' in the old schema', additionalInfo:'reader union lacking writer type: INT'}");
  assert.equal(check('BACKWARD', [record([a], 'Old')], record([a], 'New'))[0],
    "{errorType:'NAME_MISMATCH', description:'The name of the schema has changed (path '/name')', additionalInfo:'expected: Old'}");
  // An alias of the old name keeps the rename compatible.
  assert.deepEqual(check('BACKWARD', [record([a], 'Old')], JSON.stringify({ type: 'record', name: 'New', aliases: ['Old'], fields: [a] })), []);
  const f = (size: number) => JSON.stringify({ type: 'fixed', name: 'F', size });
  assert.equal(check('BACKWARD', [f(4)], f(8))[0],
    "{errorType:'FIXED_SIZE_MISMATCH', description:'The size of FIXED type field at path '/size' in the new schema does not match with the old schema', additionalInfo:'expected: 4, found: 8'}");
  // Promotions: int → long, float, double; string ↔ bytes.
  for (const [from, to] of [['int', 'long'], ['long', 'float'], ['float', 'double'], ['string', 'bytes'], ['bytes', 'string']]) {
    assert.deepEqual(check('BACKWARD', [JSON.stringify(from)], JSON.stringify(to)), [], `${from} → ${to}`);
  }
  // A field renamed with an alias of its old name is read.
  assert.deepEqual(check('BACKWARD', [record([a])], record([{ name: 'a2', type: 'string', aliases: ['a'] }])), []);
});

test('avro FULL refusal: both directions, the old schema appended once', () => {
  const old = record([a, bRequired]);
  const messages = check('FULL', [old], record([a, { name: 'c', type: 'int' }]));
  assert.deepEqual(messages, [
    "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'b' at path '/fields/1' in the old schema has no default value and is missing in the new schema', additionalInfo:'b'}",
    "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'c' at path '/fields/1' in the new schema has no default value and is missing in the old schema', additionalInfo:'c'}",
    '{oldSchemaVersion: 1}',
    `{oldSchema: '${old}'}`,
    "{validateFields: 'false', compatibility: 'FULL'}",
  ]);
});

test('a recursive record is checked without looping', () => {
  const list = (extra: object[] = []) => JSON.stringify({ type: 'record', name: 'Node', fields: [{ name: 'v', type: 'int' }, { name: 'next', type: ['null', 'Node'], default: null }, ...extra] });
  assert.deepEqual(check('FULL', [list()], list([{ name: 'w', type: 'int', default: 1 }])), []);
  assert.notDeepEqual(check('BACKWARD', [list()], list([{ name: 'w', type: 'int' }])), []);
});
