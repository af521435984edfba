// Confluent's ProtobufDiff, case by case: the schema pairs of Confluent's own diff examples (test/fixtures/
// schema-registry/protobuf-diff-cases.json holds them as data, with the references some of them import), each with
// the differences Confluent reports, in its order, and whether it finds the change compatible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { protobufProvider, type ProtobufSchema } from '../../src/schema-registry/protobuf/protobuf-schema.js';
import { incompatibilities } from '../../src/schema-registry/compatibility.js';

interface Reference {
  readonly name: string;
  readonly subject: string;
  readonly version: number;
  readonly schema: string;
}

interface Case {
  readonly from: string;
  readonly to: string;
  readonly fromReferences?: Reference[];
  readonly toReferences?: Reference[];
  readonly differences: [string, string][];
  readonly compatible: boolean;
}

const cases = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'schema-registry', 'protobuf-diff-cases.json'), 'utf8')) as Case[];

cases.forEach((c, i) => {
  const label = c.differences.length === 0 ? 'no difference' : [...new Set(c.differences.map(([type]) => type))].join(', ');
  test(`protobuf diff #${i + 1}: ${label} (${c.compatible ? 'compatible' : 'incompatible'})`, () => {
    const from = protobufProvider.parse(c.from, c.fromReferences ?? []);
    const to = protobufProvider.parse(c.to, c.toReferences ?? []);
    assert.deepEqual((to as ProtobufSchema).differences(from as ProtobufSchema).map((d) => [d.type, d.path]), c.differences);
    assert.equal(incompatibilities('BACKWARD', to, [{ schema: from, version: 1 }]).length === 0, c.compatible);
  });
});
