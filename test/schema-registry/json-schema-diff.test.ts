// Confluent's JsonSchemaDiff, case by case: the schema pairs of Confluent's own diff examples (drafts 7 and 2020-12,
// plain and combined types; test/fixtures/schema-registry/json-schema-diff-cases.json holds them as data), each with
// the differences Confluent reports, in its order, and whether its STRICT (and LENIENT) policy finds the change
// compatible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SchemaModel, type Json } from '../../src/schema-registry/json/json-schema-model.js';
import { COMPATIBLE, COMPATIBLE_LENIENT, compareSchemas } from '../../src/schema-registry/json/json-schema-diff.js';

interface Case {
  readonly from: Json;
  readonly to: Json;
  readonly differences: [string, string][];
  readonly compatible: boolean;
  /** Under the LENIENT policy, when it differs from `compatible`. */
  readonly compatibleLenient?: boolean;
}

const groups = JSON.parse(readFileSync(join(process.cwd(), 'test', 'fixtures', 'schema-registry', 'json-schema-diff-cases.json'), 'utf8')) as Record<string, Case[]>;

for (const [group, cases] of Object.entries(groups)) {
  cases.forEach((c, i) => {
    const label = c.differences.length === 0 ? 'no difference' : [...new Set(c.differences.map(([type]) => type))].join(', ');
    test(`json diff ${group} #${i + 1}: ${label} (${c.compatible ? 'compatible' : 'incompatible'})`, () => {
      const differences = compareSchemas(new SchemaModel(c.from).root, new SchemaModel(c.to).root);
      assert.deepEqual(differences.map((d) => [d.type, d.path]), c.differences);
      assert.equal(differences.every((d) => COMPATIBLE.has(d.type)), c.compatible);
      assert.equal(differences.every((d) => COMPATIBLE_LENIENT.has(d.type)), c.compatibleLenient ?? c.compatible);
    });
  });
}
