// The texts the registry stores for an Avro schema: Java Avro's Schema.toString() (Confluent's canonicalString:
// attributes in Avro's order, a named type in full once then by name, namespaces written only where they change,
// props kept) and Confluent's normalized form (full names, name first, props sorted, order and defaults written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { avroProvider } from '../../src/schema-registry/avro/avro-schema.js';

test("canonical text: Java Avro's compact form", () => {
  const schema = {
    fields: [
      { doc: 'who', name: 'name', type: 'string', default: 'x', order: 'descending', aliases: ['n'] },
      { name: 'home', type: { type: 'record', name: 'Address', fields: [{ name: 'city', type: { type: 'string', 'avro.java.string': 'String' } }] } },
      { name: 'work', type: ['null', 'Address'], default: null },
      { name: 'other', type: { type: 'record', name: 'Elsewhere', namespace: 'org.other', fields: [{ name: 'back', type: 'com.example.Address' }] } },
      { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['A', 'B'], default: 'A', doc: 'kinds' } },
      { name: 'id', type: { type: 'fixed', name: 'Id', size: 16, aliases: ['OldId'] } },
      { name: 'when', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'tags', type: { type: 'map', values: { type: 'array', items: 'Kind' } } },
    ],
    type: 'record', name: 'User', namespace: 'com.example', doc: 'A user', 'x-owner': 'team',
  };
  assert.equal(avroProvider.parse(JSON.stringify(schema), []).canonical,
    '{"type":"record","name":"User","namespace":"com.example","doc":"A user","fields":[' +
    '{"name":"name","type":"string","doc":"who","default":"x","order":"descending","aliases":["n"]},' +
    '{"name":"home","type":{"type":"record","name":"Address","fields":[{"name":"city","type":{"type":"string","avro.java.string":"String"}}]}},' +
    '{"name":"work","type":["null","Address"],"default":null},' +
    '{"name":"other","type":{"type":"record","name":"Elsewhere","namespace":"org.other","fields":[{"name":"back","type":"com.example.Address"}]}},' +
    '{"name":"kind","type":{"type":"enum","name":"Kind","doc":"kinds","symbols":["A","B"],"default":"A"}},' +
    '{"name":"id","type":{"type":"fixed","name":"Id","size":16,"aliases":["OldId"]}},' +
    '{"name":"when","type":{"type":"long","logicalType":"timestamp-millis"}},' +
    '{"name":"tags","type":{"type":"map","values":{"type":"array","items":"Kind"}}}' +
    '],"x-owner":"team"}');
  // A type of a reference is written by name.
  const address = JSON.stringify({ type: 'record', name: 'Address', namespace: 'com.example', fields: [{ name: 'city', type: 'string' }] });
  assert.equal(avroProvider.parse(JSON.stringify({ type: 'record', name: 'P', namespace: 'com.example', fields: [{ name: 'a', type: 'Address' }] }), [{ name: 'com.example.Address', schema: address }]).canonical,
    '{"type":"record","name":"P","namespace":"com.example","fields":[{"name":"a","type":"Address"}]}');
  assert.equal(avroProvider.parse('"string"', []).canonical, '"string"');
  assert.equal(avroProvider.parse('{"type": "int"}', []).canonical, '"int"');
});

test("normalized text: Confluent's AvroSchemaUtils.toNormalizedString", () => {
  const schema = { type: 'record', name: 'User', namespace: 'com.example', doc: 'A user', 'z-prop': 1, 'a-prop': 2,
    fields: [{ name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 }, default: '' },
      { name: 'e', type: { type: 'enum', name: 'E', symbols: ['X'], default: 'X' } }] };
  assert.equal(avroProvider.parse(JSON.stringify(schema), []).normalized(),
    '{"name":"com.example.User","type":"record","fields":[' +
    '{"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2},"order":"ASCENDING","default":""},' +
    '{"name":"e","type":{"name":"com.example.E","type":"enum","symbols":["X"],"default":"X"},"order":"ASCENDING"}' +
    '],"doc":"A user","a-prop":2,"z-prop":1}');
});

test('invalid Avro schemas are refused with the parser\'s reason', () => {
  assert.throws(() => avroProvider.parse('{"type":"record","name":"R","fields":[{"name":"a","type":"int","default":"x"}]}', []), /default/);
  assert.throws(() => avroProvider.parse('{"type":"enum","name":"E","symbols":["A","A"]}', []));
  assert.throws(() => avroProvider.parse('{"type":"record","name":"R","fields":[{"name":"a","type":"Missing"}]}', []), /Missing/);
  assert.throws(() => avroProvider.parse('{not json', []));
});

test("a number written as a double keeps Java's form in both texts (Jackson's DoubleNode); an integer stays one", () => {
  const text = '{"type":"record","name":"M","fields":[' +
    '{"name":"a","type":"double","default":1.0},{"name":"b","type":"double","default":1e10},{"name":"c","type":"float","default":0.0001},' +
    '{"name":"d","type":"double","default":2.50},{"name":"e","type":"long","default":7},{"name":"f","type":"double","default":-0.0,"scale":3.0}]}';
  const parsed = avroProvider.parse(text, []);
  assert.equal(parsed.canonical, '{"type":"record","name":"M","fields":[' +
    '{"name":"a","type":"double","default":1.0},{"name":"b","type":"double","default":1.0E10},{"name":"c","type":"float","default":1.0E-4},' +
    '{"name":"d","type":"double","default":2.5},{"name":"e","type":"long","default":7},{"name":"f","type":"double","default":-0.0,"scale":3.0}]}');
  assert.match(parsed.normalized(), /"default":1\.0\}.*"default":1\.0E10\}/);
});
