// JSON Schema compatibility case by case, as Confluent documents it (content models: an open one takes any extra
// property, so adding one is not backward compatible and removing one is; a closed one the reverse), with the
// difference types and texts of Confluent's JsonSchemaDiff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonProvider } from '../../src/schema-registry/json/json-schema.js';
import { incompatibilities, type CompatibilityLevel } from '../../src/schema-registry/compatibility.js';

const object = (properties: object, extra: object = {}) => JSON.stringify({ type: 'object', properties, ...extra });
const closed = { additionalProperties: false };

function check(level: CompatibilityLevel, previous: string[], next: string): string[] {
  return incompatibilities(level, jsonProvider.parse(next, []), previous.map((text, i) => ({ schema: jsonProvider.parse(text, []), version: i + 1 })));
}

const cases: { level: CompatibilityLevel; change: string; previous: string[]; pass: string; fail: string }[] = [
  { level: 'BACKWARD', change: 'open model: delete a property / add one', previous: [object({ a: { type: 'string' }, b: { type: 'number' } })], pass: object({ a: { type: 'string' } }), fail: object({ a: { type: 'string' }, b: { type: 'number' }, c: { type: 'string' } }) },
  { level: 'BACKWARD', change: 'closed model: add an optional property / delete one', previous: [object({ a: { type: 'string' } }, closed)], pass: object({ a: { type: 'string' }, c: { type: 'string' } }, closed), fail: object({}, closed) },
  { level: 'BACKWARD', change: 'widen a string bound / change a type', previous: [object({ a: { type: 'string', maxLength: 5 } })], pass: object({ a: { type: 'string', maxLength: 10 } }), fail: object({ a: { type: 'number' } }) },
  { level: 'BACKWARD', change: 'extend an enum / narrow it', previous: [object({ e: { enum: ['x', 'y'] } })], pass: object({ e: { enum: ['x', 'y', 'z'] } }), fail: object({ e: { enum: ['x'] } }) },
  { level: 'BACKWARD_TRANSITIVE', change: 'checked against every earlier version', previous: [object({ a: { type: 'string', maxLength: 5 } }), object({ a: { type: 'string', maxLength: 10 } })], pass: object({ a: { type: 'string', maxLength: 20 } }), fail: object({ a: { type: 'string', maxLength: 7 } }) },
  { level: 'FORWARD', change: 'open model: add a property / delete one', previous: [object({ a: { type: 'string' } })], pass: object({ a: { type: 'string' }, b: { type: 'number' } }), fail: object({}) },
  { level: 'FORWARD_TRANSITIVE', change: 'checked against every earlier version', previous: [object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } })], pass: object({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' } }), fail: object({ a: { type: 'string' }, c: { type: 'string' } }) },
  { level: 'FULL', change: 'a description only / a type change', previous: [object({ a: { type: 'string' } })], pass: object({ a: { type: 'string', description: 'the a' } }), fail: object({ a: { type: 'boolean' } }) },
  { level: 'FULL_TRANSITIVE', change: 'checked both ways against every earlier version', previous: [object({ a: { type: 'string' } }), object({ a: { type: 'string', title: 'A' } })], pass: object({ a: { type: 'string', title: 'A2' } }), fail: object({ a: { type: 'string' }, b: { type: 'string' } }) },
  { level: 'BACKWARD', change: 'oneOf: add a branch / drop one', previous: [JSON.stringify({ oneOf: [{ type: 'string' }, { type: 'number' }] })], pass: JSON.stringify({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }), fail: JSON.stringify({ oneOf: [{ type: 'string' }] }) },
  { level: 'BACKWARD', change: 'a type becomes one branch of an anyOf / an allOf', previous: [object({ a: { type: 'string' } })], pass: object({ a: { anyOf: [{ type: 'null' }, { type: 'string' }] } }), fail: object({ a: { allOf: [{ type: 'string' }, { maxLength: 3 }] } }) },
  { level: 'BACKWARD', change: 'a property removed that a pattern still covers / one it does not', previous: [object({ a: { type: 'string' }, n_1: { type: 'number' } }, { patternProperties: { '^n_': { type: 'number' } }, additionalProperties: false })], pass: object({ a: { type: 'string' } }, { patternProperties: { '^n_': { type: 'number' } }, additionalProperties: false }), fail: object({ n_1: { type: 'number' } }, { patternProperties: { '^n_': { type: 'number' } }, additionalProperties: false }) },
  { level: 'BACKWARD', change: 'a dependency dropped / one added', previous: [object({ a: { type: 'string' }, b: { type: 'string' } }, { dependencies: { a: ['b'] } })], pass: object({ a: { type: 'string' }, b: { type: 'string' } }), fail: object({ a: { type: 'string' }, b: { type: 'string' } }, { dependencies: { a: ['b'], b: ['a'] } }) },
  { level: 'BACKWARD', change: 'through a local $ref: widened / narrowed', previous: [object({ a: { $ref: '#/definitions/s' } }, { definitions: { s: { type: 'string', maxLength: 5 } } })], pass: object({ a: { type: 'string', maxLength: 9 } }), fail: object({ a: { $ref: '#/definitions/s' } }, { definitions: { s: { type: 'string', maxLength: 2 } } }) },
  { level: 'BACKWARD', change: 'a recursive schema: a new optional node field in a closed model / a changed one', previous: [JSON.stringify({ $id: 'tree', type: 'object', additionalProperties: false, properties: { v: { type: 'number' }, kids: { type: 'array', items: { $ref: '#' } } } })], pass: JSON.stringify({ $id: 'tree', type: 'object', additionalProperties: false, properties: { v: { type: 'number' }, name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } } } }), fail: JSON.stringify({ $id: 'tree', type: 'object', additionalProperties: false, properties: { v: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } } } }) },
  { level: 'FORWARD', change: 'oneOf: drop a branch / add one', previous: [JSON.stringify({ oneOf: [{ type: 'string' }, { type: 'number' }] })], pass: JSON.stringify({ oneOf: [{ type: 'string' }] }), fail: JSON.stringify({ oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] }) },
  { level: 'NONE', change: 'any change', previous: [object({ a: { type: 'string' } })], pass: JSON.stringify({ type: 'array' }), fail: '' },
];

for (const c of cases) {
  test(`json ${c.level}: ${c.change}`, () => {
    assert.deepEqual(check(c.level, c.previous, c.pass), []);
    if (c.fail !== '') assert.notDeepEqual(check(c.level, c.previous, c.fail), []);
  });
}

test("json refusal: Confluent's difference text", () => {
  const old = object({ a: { type: 'string' } });
  assert.deepEqual(check('BACKWARD', [old], object({ a: { type: 'string' }, b: { type: 'string' } })), [
    `{errorType:"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", description:"The new schema has an open content model and has a property or item at path '#/properties/b' which is missing in the old schema'}`,
    '{oldSchemaVersion: 1}',
    `{oldSchema: '${old}'}`,
    "{validateFields: 'false', compatibility: 'BACKWARD'}",
  ]);
  assert.equal(check('BACKWARD', [old], object({ a: { type: 'integer' } }))[0],
    `{errorType:"TYPE_CHANGED", description:"A type at path '#/properties/a' is different between the new schema and the old schema'}`);
});

test("json refusal inside a combined type: Confluent's path and text", () => {
  const old = JSON.stringify({ oneOf: [{ type: 'string' }, { type: 'number' }] });
  assert.deepEqual(check('BACKWARD', [old], JSON.stringify({ oneOf: [{ type: 'string' }] })).slice(0, 2), [
    `{errorType:"SUM_TYPE_NARROWED", description:"An array or combined type at path '#/' has fewer elements in the new schema than the old schema'}`,
    '{oldSchemaVersion: 1}',
  ]);
});

test('a $ref to a schema reference is compared through the reference', () => {
  const address = (city: object) => JSON.stringify({ type: 'object', properties: { city } });
  const person = JSON.stringify({ type: 'object', properties: { home: { $ref: 'address.json' } } });
  const v1 = jsonProvider.parse(person, [{ name: 'address.json', schema: address({ type: 'string' }) }]);
  const widened = jsonProvider.parse(person, [{ name: 'address.json', schema: address({ type: 'string', maxLength: 99 }) }]);
  assert.deepEqual(incompatibilities('BACKWARD', widened, [{ schema: v1, version: 1 }]).slice(0, 1), [
    `{errorType:"MAX_LENGTH_ADDED", description:"The keyword at path '#/properties/home/properties/city/maxLength' in the new schema is not present in the old schema'}`,
  ]);
});

test("a $ref's siblings: ignored up to draft 7, applied beside it from 2019-09", () => {
  const withRef = (draft: string, extra: object) => JSON.stringify({ $schema: draft, $defs: { s: { type: 'string' } }, $ref: '#/$defs/s', ...extra });
  const draft7 = 'http://json-schema.org/draft-07/schema#';
  const draft2020 = 'https://json-schema.org/draft/2020-12/schema';
  assert.deepEqual(check('BACKWARD', [withRef(draft7, {})], withRef(draft7, { maxLength: 3 })), []);
  assert.notDeepEqual(check('BACKWARD', [withRef(draft2020, {})], withRef(draft2020, { maxLength: 3 })), []);
});

test('an invalid JSON schema is refused with the validator\'s reason', () => {
  assert.throws(() => jsonProvider.parse('{"type": 12}', []), /type/);
  assert.throws(() => jsonProvider.parse('[1]', []), /object or a boolean/);
  // A boolean schema is one (true: anything, false: nothing); dropping to true is compatible, to false is not.
  assert.deepEqual(check('BACKWARD', [object({ a: { type: 'string' } })], 'true'), []);
  assert.equal(check('BACKWARD', ['true'], 'false')[0], `{errorType:"TYPE_CHANGED", description:"A type at path '#/' is different between the new schema and the old schema'}`);
  assert.equal(jsonProvider.parse('{ "type" : "object", "b": 1, "a": 2 }', []).normalized(), '{"a":2,"b":1,"type":"object"}');
});

test('a $ref to a schema reference resolves by the reference\'s name; without it the schema is refused', () => {
  const address = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } } });
  const person = JSON.stringify({ type: 'object', properties: { home: { $ref: 'address.json' } } });
  assert.equal(jsonProvider.parse(person, [{ name: 'address.json', schema: address }]).canonical, person);
  assert.throws(() => jsonProvider.parse(person, []), /can't resolve reference address.json/);
});

test("the stored JSON text writes numbers as Jackson's exact decimals (1.0, 1.50, 1E+10, 1E-7), an integer as written", () => {
  const text = '{"type":"object","properties":{"a":{"type":"number","minimum":1.0,"maximum":1.50,"multipleOf":1e-7},"b":{"type":"integer","maximum":12345678901234567890,"exclusiveMaximum":1e10},"c":{"const":-0.0}}}';
  const parsed = jsonProvider.parse(text, []);
  assert.equal(parsed.canonical, '{"type":"object","properties":{"a":{"type":"number","minimum":1.0,"maximum":1.50,"multipleOf":1E-7},"b":{"type":"integer","maximum":12345678901234567890,"exclusiveMaximum":1E+10},"c":{"const":0.0}}}');
  assert.equal(parsed.normalized(), '{"properties":{"a":{"maximum":1.50,"minimum":1.0,"multipleOf":1E-7,"type":"number"},"b":{"exclusiveMaximum":1E+10,"maximum":12345678901234567890,"type":"integer"},"c":{"const":0.0}},"type":"object"}');
});
