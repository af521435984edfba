// Protobuf compatibility case by case, as Confluent documents it (fields are matched by tag: adding or removing
// one is compatible at every level, changing its kind or scalar kind, or removing a message, is not), with the
// difference types and texts of Confluent's ProtobufDiff; and the texts the registry stores and serves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { protobufProvider, type ProtobufSchema } from '../../src/schema-registry/protobuf/protobuf-schema.js';
import { incompatibilities, type CompatibilityLevel } from '../../src/schema-registry/compatibility.js';

const proto = (body: string, extra = '') => `syntax = "proto3";\npackage shop;\n\nmessage Order {\n${body}\n}\n${extra}`;

function check(level: CompatibilityLevel, previous: string[], next: string): string[] {
  return incompatibilities(level, protobufProvider.parse(next, []), previous.map((text, i) => ({ schema: protobufProvider.parse(text, []), version: i + 1 })));
}

const cases: { level: CompatibilityLevel; change: string; previous: string[]; pass: string; fail: string }[] = [
  { level: 'BACKWARD', change: 'add a field / change a scalar kind', previous: [proto('  string id = 1;')], pass: proto('  string id = 1;\n  int64 total = 2;'), fail: proto('  int64 id = 1;') },
  { level: 'BACKWARD', change: 'remove a field / remove a message', previous: [proto('  string id = 1;\n  int64 total = 2;', 'message Item {\n  string sku = 1;\n}\n')], pass: proto('  string id = 1;', 'message Item {\n  string sku = 1;\n}\n'), fail: proto('  string id = 1;') },
  // Tag 2 was an int32 in version 1 and is gone in version 2: only the transitive check sees it come back a string.
  { level: 'BACKWARD_TRANSITIVE', change: 'checked against every earlier version', previous: [proto('  string id = 1;\n  int32 n = 2;'), proto('  string id = 1;')], pass: proto('  string id = 1;\n  int32 n = 2;'), fail: proto('  string id = 1;\n  string n = 2;') },
  { level: 'FORWARD', change: 'rename a field / make a number field a message', previous: [proto('  string id = 1;\n  int32 count = 2;', 'message Count {\n  int32 n = 1;\n}\n')], pass: proto('  string id = 1;\n  int32 quantity = 2;', 'message Count {\n  int32 n = 1;\n}\n'), fail: proto('  string id = 1;\n  Count count = 2;', 'message Count {\n  int32 n = 1;\n}\n') },
  { level: 'FORWARD_TRANSITIVE', change: 'checked against every earlier version', previous: [proto('  string id = 1;'), proto('  string id = 1;\n  int32 n = 2;')], pass: proto('  string id = 1;\n  int32 n = 2;\n  int32 m = 3;'), fail: proto('  string id = 1;\n  float n = 2;') },
  // A proto3 field without a label has none to compare (Confluent reads it as Square's wire-schema does): only an
  // explicit `optional` number made repeated is refused.
  { level: 'FULL', change: 'add a field / an optional number made repeated', previous: [proto('  string id = 1;\n  optional int32 n = 2;')], pass: proto('  string id = 1;\n  optional int32 n = 2;\n  string extra = 3;'), fail: proto('  string id = 1;\n  repeated int32 n = 2;') },
  { level: 'BACKWARD', change: 'an enum constant added or renamed / a oneof field moved beside another', previous: [proto('  string id = 1;\n  int32 a = 2;\n  oneof pick {\n    string b = 3;\n  }', 'enum Status {\n  NEW = 0;\n}\n')], pass: proto('  string id = 1;\n  int32 a = 2;\n  oneof pick {\n    string b = 3;\n  }', 'enum Status {\n  CREATED = 0;\n  PAID = 1;\n}\n'), fail: proto('  string id = 1;\n  oneof pick {\n    int32 a = 2;\n    string b = 3;\n  }', 'enum Status {\n  NEW = 0;\n}\n') },
  { level: 'BACKWARD', change: 'a nested message moved among its siblings / a oneof member dropped', previous: [proto('  string id = 1;\n  oneof pick {\n    string b = 3;\n    int32 c = 4;\n  }\n  message A {\n  }\n  message B {\n  }')], pass: proto('  string id = 1;\n  oneof pick {\n    string b = 3;\n    int32 c = 4;\n  }\n  message B {\n  }\n  message A {\n  }'), fail: proto('  string id = 1;\n  oneof pick {\n    string b = 3;\n  }\n  message A {\n  }\n  message B {\n  }') },
  { level: 'FULL_TRANSITIVE', change: 'checked both ways against every earlier version', previous: [proto('  string id = 1;'), proto('  string id = 1;\n  int32 n = 2;')], pass: proto('  string id = 1;\n  int32 n = 2;'), fail: proto('  sint32 id = 1;') },
  { level: 'NONE', change: 'any change', previous: [proto('  string id = 1;')], pass: proto('  double id = 1;'), fail: '' },
];

for (const c of cases) {
  test(`protobuf ${c.level}: ${c.change}`, () => {
    assert.deepEqual(check(c.level, c.previous, c.pass), []);
    if (c.fail !== '') assert.notDeepEqual(check(c.level, c.previous, c.fail), []);
  });
}

test("protobuf refusal: Confluent's difference text", () => {
  const old = proto('  string id = 1;');
  const messages = check('BACKWARD', [old], proto('  int64 id = 1;'));
  assert.equal(messages[0], `{errorType:"FIELD_SCALAR_KIND_CHANGED", description:"The kind of a SCALAR field at path '#/Order/1' in the new schema does not match its kind in the old schema"}`);
  assert.equal(messages[1], '{oldSchemaVersion: 1}');
});

test("the stored text is Confluent's printing: messages before enums, a oneof after the fields, every option with its kind", () => {
  const text = [
    'syntax = "proto2";', 'package shop;', 'import "google/protobuf/descriptor.proto";', 'option java_package = "com.shop";', 'option optimize_for = SPEED;',
    'extend google.protobuf.FieldOptions { optional string tag = 50001; }',
    'enum Level { LOW = 0; }',
    'message Order {', '  reserved 5, 9 to 11, 100 to max;', '  reserved "old";', '  extensions 1000 to 2000;', '  option deprecated = true;',
    '  oneof pick { string a = 6; int32 b = 7 [(tag) = "y"]; }',
    '  optional string id = 1 [deprecated = true, (tag) = "x", json_name = "ident"];', '  optional int32 n = 2 [default = 7];', '  map<string, Order> m = 8;',
    '  enum E { option allow_alias = true; X = 0; Y = 1 [deprecated = true]; Z = 1; }', '  message Empty {}', '}',
    'service S { rpc Get (Order) returns (stream Order) { option deprecated = true; } }',
  ].join('\n');
  const parsed = protobufProvider.parse(text, []);
  assert.equal(parsed.canonical, `syntax = "proto2";
package shop;

import "google/protobuf/descriptor.proto";

option java_package = "com.shop";
option optimize_for = SPEED;

message Order {
  reserved 5, 9 to 11, 100 to max;
  reserved "old";

  option deprecated = true;

  optional string id = 1 [
    deprecated = true,
    (tag) = "x",
    json_name = "ident"
  ];
  optional int32 n = 2 [default = 7];
  map<string, Order> m = 8;

  oneof pick {
    string a = 6;
    int32 b = 7 [(tag) = "y"];
  }

  extensions 1000 to 2000;

  message Empty {}
  enum E {
    option allow_alias = true;
    X = 0;
    Y = 1 [deprecated = true];
    Z = 1;
  }
}
enum Level {
  LOW = 0;
}

extend google.protobuf.FieldOptions {
  optional string tag = 50001;
}

service S {
  rpc Get (Order) returns (stream Order) {
    option deprecated = true;
  };
}
`);
  // Normalized: no proto2 syntax line, one reserved range a line, options sorted by name and qualified, fields by
  // tag, types fully qualified.
  assert.equal(parsed.normalized().split('\nmessage Order {\n')[1]!.split('\n  message Empty')[0], `  reserved 5;
  reserved 9 to 11;
  reserved 100 to max;
  reserved "old";

  option deprecated = true;

  optional string id = 1 [
    deprecated = true,
    json_name = "ident",
    (shop.tag) = "x"
  ];
  optional int32 n = 2 [default = 7];
  map<string, .shop.Order> m = 8;

  oneof pick {
    string a = 6;
    int32 b = 7 [(shop.tag) = "y"];
  }

  extensions 1000 to 2000;
`);
  assert.ok(parsed.normalized().startsWith('package shop;\n'));
});

test('a default is printed as written (inf, 1.50, an enum constant), a string default unescaped and escaped as Confluent does; the text parses again to itself', () => {
  const text = 'syntax = "proto2";\nmessage A { optional float f = 1 [default = inf]; optional E e = 2 [default = B]; enum E { A = 0; B = 1; } optional bytes b = 3 [default = "\\001"]; optional string s = 4 [default = "x\\"y\\n"]; optional double d = 5 [default = 1.50]; }';
  const parsed = protobufProvider.parse(text, []);
  assert.equal(parsed.canonical, 'syntax = "proto2";\n\nmessage A {\n  optional float f = 1 [default = inf];\n  optional E e = 2 [default = B];\n  optional bytes b = 3 [default = "\u0001"];\n' +
    '  optional string s = 4 [default = "x\\"y\\n"];\n  optional double d = 5 [default = 1.50];\n\n  enum E {\n    A = 0;\n    B = 1;\n  }\n}\n');
  assert.equal(protobufProvider.parse(parsed.canonical, []).canonical, parsed.canonical);
  // Normalized, numbers are Java's DecimalFormat (three decimals at most, half-even); inf and constants stay.
  const numbers = 'syntax = "proto2";\nmessage N { optional double a = 1 [default = 1.50]; optional double b = 2 [default = 0.0625]; optional double c = 3 [default = 1e3]; optional double d = 4 [default = 0.0001]; optional float e = 5 [default = inf]; }';
  assert.match(protobufProvider.parse(numbers, []).normalized(), /a = 1 \[default = 1\.5\];\n.*b = 2 \[default = 0\.062\];\n.*c = 3 \[default = 1000\];\n.*d = 4 \[default = 0\];\n.*e = 5 \[default = inf\];/s);
});

test('a base64 FileDescriptorProto (format=serialized) is the same schema: types named as the descriptor names them, a map by its entry message', () => {
  const text = 'syntax = "proto3";\npackage shop;\n\nmessage Order {\n  string id = 1;\n  map<string, int32> lines = 2;\n  Status status = 3;\n  repeated Item items = 4;\n\n  message Item {\n    string sku = 1;\n  }\n}\nenum Status {\n  NEW = 0;\n  PAID = 1;\n}\n';
  const parsed = protobufProvider.parse(text, []) as ProtobufSchema;
  assert.equal(parsed.canonical, text);
  const fromDescriptor = protobufProvider.parse(parsed.serialized(), []) as ProtobufSchema;
  assert.deepEqual(fromDescriptor.differences(parsed), []);
  assert.equal(fromDescriptor.canonical, 'syntax = "proto3";\npackage shop;\n\nmessage Order {\n  string id = 1;\n  repeated .shop.Order.LinesEntry lines = 2;\n  .shop.Status status = 3;\n  repeated .shop.Order.Item items = 4;\n\n  message LinesEntry {\n    option map_entry = true;\n  \n    string key = 1;\n    int32 value = 2;\n  }\n  message Item {\n    string sku = 1;\n  }\n}\nenum Status {\n  NEW = 0;\n  PAID = 1;\n}\n');
  assert.equal(fromDescriptor.normalized(), parsed.normalized());
  assert.throws(() => protobufProvider.parse('message {', []));
});

test('reserved statements are printed as the source writes them (each on its line, 5 to 5 kept a range), in nested types too', () => {
  const text = 'syntax = "proto2";\npackage p.q;\nmessage A {\n  reserved 2, 15, 9 to 11;\n  reserved "foo", "bar";\n  reserved 20 to max;\n  optional string s = 1 [default = "{"];\n' +
    '  message B { reserved 5 to 5; reserved "x"; optional int32 y = 1; }\n  enum E { reserved 3, 4; reserved "Q"; Z = 0; }\n}\n';
  assert.equal(protobufProvider.parse(text, []).canonical, 'syntax = "proto2";\npackage p.q;\n\nmessage A {\n  reserved 2, 15, 9 to 11;\n  reserved "foo", "bar";\n  reserved 20 to max;\n\n' +
    '  optional string s = 1 [default = "{"];\n\n  message B {\n    reserved 5 to 5;\n    reserved "x";\n  \n    optional int32 y = 1;\n  }\n' +
    '  enum E {\n    reserved 3, 4;\n    reserved "Q";\n    Z = 0;\n  }\n}\n');
});

test('an option number is printed as written (1.0, 0x10, -2.50), as Square keeps its text', () => {
  const text = 'syntax = "proto3";\nimport "google/protobuf/descriptor.proto";\nextend google.protobuf.FieldOptions { double w = 50001; int32 n = 50002; }\n' +
    'message A {\n  int32 a = 1 [(w) = 1.0, (n) = 0x10];\n  int32 b = 2 [(w) = -2.50];\n}\n';
  const parsed = protobufProvider.parse(text, []);
  assert.match(parsed.canonical, /int32 a = 1 \[\n    \(w\) = 1\.0,\n    \(n\) = 0x10\n  \];\n  int32 b = 2 \[\(w\) = -2\.50\];/);
  // Normalized: sorted by name, numbers as DecimalFormat writes them (the extensions have no package to qualify).
  assert.match(parsed.normalized(), /int32 a = 1 \[\n    \(n\) = 16,\n    \(w\) = 1\n  \];\n  int32 b = 2 \[\(w\) = -2\.5\];/);
});

test('a string option is read with every escape (\\", hex, octal) and written with Confluent\'s', () => {
  const parsed = protobufProvider.parse('syntax = "proto3";\noption java_package = "a\\"b\\x41\\101";\nmessage A { string s = 1; }\n', []);
  assert.equal(parsed.canonical, 'syntax = "proto3";\n\noption java_package = "a\\"bAA";\n\nmessage A {\n  string s = 1;\n}\n');
});

test('a proto2 group is printed as a group (after the oneofs), and is neither a field nor a message to the diff', () => {
  const v1 = 'syntax = "proto2";\nmessage A { optional int32 a = 5; optional group G = 1 { optional int32 x = 2; } repeated group H = 3 { } }';
  const parsed = protobufProvider.parse(v1, []) as ProtobufSchema;
  assert.equal(parsed.canonical, 'syntax = "proto2";\n\nmessage A {\n  optional int32 a = 5;\n\n  optional group G = 1 {\n    optional int32 x = 2;\n  }\n  repeated group H = 3 {}\n}\n');
  const v2 = protobufProvider.parse('syntax = "proto2";\nmessage A { optional int32 a = 5; }', []) as ProtobufSchema;
  assert.deepEqual(v2.differences(parsed), []);
});

test('an extend inside a message is printed in it, after its extension ranges', () => {
  const parsed = protobufProvider.parse('syntax = "proto2";\nimport "google/protobuf/descriptor.proto";\nmessage A { extend google.protobuf.FieldOptions { optional int32 z = 5000; } optional int32 b = 1; }', []);
  assert.equal(parsed.canonical, 'syntax = "proto2";\n\nimport "google/protobuf/descriptor.proto";\n\nmessage A {\n  optional int32 b = 1;\n\n' +
    '  extend google.protobuf.FieldOptions {\n    optional int32 z = 5000;\n  }\n}\n');
});

test("a descriptor's file options are printed as Confluent lists them (its order, snake_case names, optimize_for by name)", () => {
  const D = descriptor as unknown as Record<string, { encode(m: unknown): { finish(): Uint8Array } }>;
  const bytes = D['FileDescriptorProto']!.encode({
    name: 'x.proto', package: 'shop', syntax: 'proto3',
    options: { optimizeFor: 1, javaMultipleFiles: true, goPackage: 'example.com/shop', javaPackage: 'com.shop' },
    messageType: [{ name: 'Order', field: [{ name: 'id', number: 1, label: 1, type: 9 }] }],
  }).finish();
  assert.equal(protobufProvider.parse(Buffer.from(bytes).toString('base64'), []).canonical, 'syntax = "proto3";\npackage shop;\n\n' +
    'option java_package = "com.shop";\noption java_multiple_files = true;\noption optimize_for = SPEED;\noption go_package = "example.com/shop";\n\n' +
    'message Order {\n  string id = 1;\n}\n');
});

test('a well-known import (google/protobuf/timestamp.proto) needs no reference; an unknown type is refused', () => {
  const text = 'syntax = "proto3";\npackage ev;\n\nimport "google/protobuf/timestamp.proto";\n\nmessage E {\n  google.protobuf.Timestamp at = 1;\n}\n';
  const parsed = protobufProvider.parse(text, []) as ProtobufSchema;
  assert.equal(parsed.canonical, text);
  assert.equal(protobufProvider.parse(parsed.serialized(), []).canonical, text.replace(' google.', ' .google.'));
  assert.throws(() => protobufProvider.parse('syntax = "proto3";\nmessage E {\n  Missing m = 1;\n}\n', []), /Missing/);
});
