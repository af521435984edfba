// decode(encode(x)) deep-equals x for every generated message (every API request and response, the
// headers, the data messages and the internal record schemas), at every version, for random x.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reader } from '../../src/protocol/io/reader.js';
import { Writer } from '../../src/protocol/io/writer.js';
import { apis, apiByKey, ApiKey } from '../../src/protocol/generated/index.js';
import { schemas, type MessageSchema } from './generated/schemas.js';
import { randomMessage, seededRng } from './codec-random.js';

const ROUNDS_PER_VERSION = 6;

function roundTrip(schema: MessageSchema, value: unknown, version: number): void {
  const w = new Writer(32);
  schema.encode(w, value, version);
  const bytes = w.toBuffer();
  const r = new Reader(bytes);
  const decoded = schema.decode(r, version);
  assert.deepStrictEqual(decoded, value, `${schema.name} v${version}`);
  assert.equal(r.remaining, 0, `${schema.name} v${version} decode consumed every byte`);
  // Encoding the decoded value gives the same bytes.
  const w2 = new Writer(32);
  schema.encode(w2, decoded, version);
  assert.ok(w2.toBuffer().equals(bytes), `${schema.name} v${version} re-encodes identically`);
}

test('the schema descriptor covers every API request and response, headers, data and internal schemas', () => {
  // Kafka 4.3.1: api keys 0-92, of which 4-7 (LeaderAndIsr, StopReplica, UpdateMetadata, ControlledShutdown) were removed.
  assert.equal(apis.length, 89);
  for (const api of apis) {
    assert.ok(schemas.some((s) => s.name === `${api.name}Request` && s.apiKey === api.apiKey));
    assert.ok(schemas.some((s) => s.name === `${api.name}Response` && s.apiKey === api.apiKey));
  }
  assert.ok(schemas.some((s) => s.name === 'RequestHeader'));
  assert.ok(schemas.some((s) => s.name === 'OffsetCommitValue'));
  assert.ok(schemas.some((s) => s.name === 'TransactionLogValue'));
  assert.ok(schemas.some((s) => s.name === 'ConsumerProtocolSubscription'));
  assert.ok(schemas.some((s) => s.name === 'ShareSnapshotValue'));
  assert.ok(schemas.some((s) => s.name === 'ControlRecordTypeSchema'));
});

for (const [index, schema] of schemas.entries()) {
  const seed = 1000 + index;
  test(`round trip ${schema.name} v${schema.minVersion}-v${schema.maxVersion} (seed ${seed})`, () => {
    const rng = seededRng(seed);
    for (let version = schema.minVersion; version <= schema.maxVersion; version++) {
      // The all-defaults value must round-trip too.
      roundTrip(schema, schema.structs[schema.root]!.create(), version);
      for (let i = 0; i < ROUNDS_PER_VERSION; i++) roundTrip(schema, randomMessage(schema, version, rng), version);
    }
  });
}

test('the apis index: api key order, descriptors, and codecs that round-trip', () => {
  const rng = seededRng(42);
  const keys = apis.map((api) => api.apiKey);
  assert.deepEqual(keys, [0, 1, 2, 3, ...Array.from({ length: 85 }, (_, i) => i + 8)]);
  apis.forEach((api) => {
    const key = api.apiKey;
    assert.equal(apiByKey(key), api);
    assert.equal((ApiKey as Record<string, number>)[api.name], key);
    assert.ok(api.minVersion <= api.maxVersion);
    const req = schemas.find((s) => s.name === `${api.name}Request`)!;
    const res = schemas.find((s) => s.name === `${api.name}Response`)!;
    assert.equal(req.maxVersion, api.maxVersion);
    assert.equal(req.flexibleMinVersion, api.flexibleMinVersion);
    for (let v = api.minVersion; v <= api.maxVersion; v++) {
      const m = randomMessage(req, v, rng);
      const w = new Writer();
      api.encodeRequest(w, m, v);
      assert.deepStrictEqual(api.decodeRequest(new Reader(w.toBuffer()), v), m);
      const m2 = randomMessage(res, v, rng);
      const w2 = new Writer();
      api.encodeResponse(w2, m2, v);
      assert.deepStrictEqual(api.decodeResponse(new Reader(w2.toBuffer()), v), m2);
    }
  });
  assert.equal(apiByKey(4), undefined, 'removed in Kafka 4.0');
  assert.equal(apiByKey(93), undefined);
  assert.equal(apiByKey(-1), undefined);
  assert.equal(apiByKey(1.5), undefined);
  assert.equal(ApiKey.ApiVersions, 18);
  assert.equal(apiByKey(ApiKey.Produce)!.flexibleMinVersion, 9);
  assert.equal(apiByKey(ApiKey.SaslHandshake)!.flexibleMinVersion, null);
  assert.equal(apiByKey(ApiKey.InitProducerId)!.latestVersionUnstable, true);
  assert.equal(apiByKey(ApiKey.EndTxn)!.latestVersionUnstable, false);
});
