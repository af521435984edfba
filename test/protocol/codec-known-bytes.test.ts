// The generator checked by something other than itself: hand-assembled encodings from the protocol
// guide, and frames captured from real Kafka peers (test/fixtures/wire) decoded and re-encoded byte-exact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Reader, ZERO_UUID } from '../../src/protocol/io/reader.js';
import { Writer } from '../../src/protocol/io/writer.js';
import { ProtocolError } from '../../src/protocol/protocol-error.js';
import { apis } from '../../src/protocol/generated/index.js';
import {
  decodeRequestHeader,
  encodeRequestHeader,
  encodeResponseHeader,
  requestHeaderVersion,
  responseHeaderVersion,
} from '../../src/protocol/generated/headers.js';
import { decodeApiVersionsRequest, encodeApiVersionsRequest, decodeApiVersionsResponse } from '../../src/protocol/generated/api-versions.js';
import { createMetadataRequest, decodeMetadataRequest, encodeMetadataRequest, encodeMetadataResponse, createMetadataResponse } from '../../src/protocol/generated/metadata.js';
import { decodeProduceRequest, encodeProduceRequest } from '../../src/protocol/generated/produce.js';
import { decodeFetchRequest, createFetchRequest, encodeFetchRequest } from '../../src/protocol/generated/fetch.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fromHex = (h: string): Buffer => Buffer.from(h.replace(/\s+/g, ''), 'hex');

function bytesOf(write: (w: Writer) => void): string {
  const w = new Writer();
  write(w);
  return w.toBuffer().toString('hex');
}

test('ApiVersions v3 request with client software name and version', () => {
  const hex = bytesOf((w) => encodeApiVersionsRequest(w, { clientSoftwareName: 'kafkajs', clientSoftwareVersion: '2.2.4' }, 3));
  // compact string: uvarint(len + 1), bytes; then an empty tagged-field section.
  assert.equal(hex, '08' + Buffer.from('kafkajs').toString('hex') + '06' + Buffer.from('2.2.4').toString('hex') + '00');
  assert.deepEqual(decodeApiVersionsRequest(new Reader(fromHex(hex)), 3), { clientSoftwareName: 'kafkajs', clientSoftwareVersion: '2.2.4' });
  // v0-v2 have no body at all; the ignorable names are dropped.
  assert.equal(bytesOf((w) => encodeApiVersionsRequest(w, { clientSoftwareName: 'x', clientSoftwareVersion: 'y' }, 2)), '');
});

test('request header v2 keeps a classic (non-compact) nullable client id', () => {
  const h = { requestApiKey: 18, requestApiVersion: 3, correlationId: 7, clientId: 'cli' };
  assert.equal(bytesOf((w) => encodeRequestHeader(w, h, 2)), '0012' + '0003' + '00000007' + '0003636c69' + '00');
  assert.equal(bytesOf((w) => encodeRequestHeader(w, { ...h, clientId: null }, 1)), '0012000300000007ffff');
  // Header v0 went with ControlledShutdown v0 (Kafka 4.0): RequestHeader is 1-2.
  assert.throws(() => encodeRequestHeader(new Writer(), h, 0), (e: unknown) => e instanceof ProtocolError && e.kind === 'unsupported-version');
  assert.deepEqual(decodeRequestHeader(new Reader(fromHex('0012000300000007ffff00')), 2), { ...h, clientId: null });
  assert.equal(bytesOf((w) => encodeResponseHeader(w, { correlationId: 7 }, 1)), '0000000700');
});

test('header versions: flexible APIs use v2/v1, ApiVersions responses always v0', () => {
  assert.equal(requestHeaderVersion(18, 3), 2);
  assert.equal(requestHeaderVersion(18, 2), 1);
  assert.equal(requestHeaderVersion(18, 9), 2, 'a future ApiVersions version still parses as flexible');
  assert.equal(responseHeaderVersion(18, 4), 0);
  assert.equal(requestHeaderVersion(0, 9), 2);
  assert.equal(requestHeaderVersion(0, 8), 1);
  assert.equal(responseHeaderVersion(0, 9), 1);
  assert.equal(responseHeaderVersion(0, 8), 0);
  assert.equal(requestHeaderVersion(7, 1), 1, 'a removed api key (ControlledShutdown): never flexible');
  assert.equal(requestHeaderVersion(17, 1), 1, 'SaslHandshake is never flexible');
  assert.equal(responseHeaderVersion(17, 1), 0);
});

test('Metadata v12 request, byte by byte', () => {
  const topicId = Buffer.from('00112233445566778899aabbccddeeff', 'hex').toString('base64url');
  const m = { ...createMetadataRequest(), topics: [{ topicId, name: 'foo' }, { topicId: ZERO_UUID, name: null }], includeTopicAuthorizedOperations: true };
  const expected =
    '03' + // compact array of 2
    '00112233445566778899aabbccddeeff' + '04666f6f' + '00' + // id, name "foo", no tags
    '00'.repeat(16) + '00' + '00' + // zero id, null name, no tags
    '01' + // allow_auto_topic_creation
    '01' + // include_topic_authorized_operations (cluster operations are v8-v10 only)
    '00'; // no tagged fields
  assert.equal(bytesOf((w) => encodeMetadataRequest(w, m, 12)), expected);
  assert.deepEqual(decodeMetadataRequest(new Reader(fromHex(expected)), 12), { ...m, includeClusterAuthorizedOperations: false });
  // Metadata v1: null topic list means "all topics", int32 -1.
  assert.equal(bytesOf((w) => encodeMetadataRequest(w, { ...createMetadataRequest(), topics: null }, 1)), 'ffffffff');
});

test('Produce v9 request: records are appended by reference, compact lengths', () => {
  const batch = Buffer.alloc(1024, 0xab);
  const w = new Writer();
  encodeProduceRequest(w, { transactionalId: null, acks: -1, timeoutMs: 30000, topicData: [{ topicId: ZERO_UUID, name: 't', partitionData: [{ index: 2, records: batch }] }] }, 9);
  const chunks = w.finish();
  assert.ok(chunks.includes(batch), 'the batch buffer itself is one of the chunks');
  // null transactional id, acks -1, timeout 30000, 1 topic "t", 1 partition 2, records length uvarint(1025) = 81 08
  const head = '00' + 'ffff' + '00007530' + '02' + '0274' + '02' + '00000002' + '8108';
  const bytes = w.toBuffer();
  assert.equal(bytes.subarray(0, head.length / 2).toString('hex'), head);
  assert.equal(bytes.subarray(bytes.length - 3).toString('hex'), '000000', 'partition, topic and request tag sections');
  const decoded = decodeProduceRequest(new Reader(bytes), 9);
  const records = decoded.topicData[0]!.partitionData[0]!.records as Buffer;
  assert.ok(records.equals(batch));
  assert.equal(records.buffer, bytes.buffer, 'decoded records are a view into the frame');
});

test('writing a non-default value the version lacks fails like Kafka; ignorable fields are dropped', () => {
  const noAuto = { ...createMetadataRequest(), allowAutoTopicCreation: false };
  assert.throws(
    () => encodeMetadataRequest(new Writer(), noAuto, 3),
    (e: unknown) => e instanceof ProtocolError && e.kind === 'unsupported-version' && /allowAutoTopicCreation at version 3/.test(e.message),
  );
  const w = new Writer();
  encodeMetadataResponse(w, { ...createMetadataResponse(), throttleTimeMs: 100, clusterId: 'c' }, 0);
  assert.equal(w.toBuffer().toString('hex'), '00000000' + '00000000', 'v0: just empty broker and topic arrays');
  assert.throws(() => encodeMetadataRequest(new Writer(), { ...createMetadataRequest(), topics: null }, 0), (e: unknown) => e instanceof ProtocolError && e.kind === 'invalid');
  assert.throws(() => encodeMetadataRequest(new Writer(), createMetadataRequest(), 14), (e: unknown) => e instanceof ProtocolError && e.kind === 'unsupported-version');
  assert.throws(() => decodeMetadataRequest(new Reader(Buffer.alloc(0)), -1), (e: unknown) => e instanceof ProtocolError && e.kind === 'unsupported-version');
});

test('tagged fields: unknown tags are skipped, known ones decoded, a tag before its version is invalid', () => {
  const body = '08' + Buffer.from('kafkajs').toString('hex') + '06' + Buffer.from('2.2.4').toString('hex');
  const withUnknown = fromHex(body + '02' + '05' + '03' + 'aabbcc' + '09' + '00');
  const r = new Reader(withUnknown);
  assert.equal(decodeApiVersionsRequest(r, 3).clientSoftwareName, 'kafkajs');
  assert.equal(r.remaining, 0);

  // Fetch v15 request carries ReplicaState as tag 1; ClusterId (tag 0) exists from v12.
  const fetch = { ...createFetchRequest(), clusterId: 'cluster', replicaState: { replicaId: 3, replicaEpoch: 9n } };
  const w = new Writer();
  encodeFetchRequest(w, fetch, 15);
  assert.deepEqual(decodeFetchRequest(new Reader(w.toBuffer()), 15), fetch);
  // The same bytes read as v12 hold tag 1, which v12 does not know: Kafka rejects that.
  const v12 = { ...createFetchRequest(), clusterId: 'cluster' };
  const w12 = new Writer();
  encodeFetchRequest(w12, v12, 12);
  assert.deepEqual(decodeFetchRequest(new Reader(w12.toBuffer()), 12), v12);
  assert.throws(() => encodeFetchRequest(new Writer(), fetch, 12), (e: unknown) => e instanceof ProtocolError && e.kind === 'unsupported-version');
});

// Frames captured from real clients and Apache Kafka 4.3.1 (see test/fixtures/wire/*/regenerate.sh).
const fixtureRoot = join(repoRoot, 'test', 'fixtures', 'wire');

function fixtureFiles(): { dir: string; file: string; api: string; version: number; side: 'request' | 'response' }[] {
  const out = [];
  for (const dir of readdirSync(fixtureRoot).sort()) {
    let names: string[];
    try {
      names = readdirSync(join(fixtureRoot, dir)).sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const m = /^\d+-(\w+)-v(\d+)\.(request|response)\.hex$/.exec(file);
      if (m) out.push({ dir, file, api: m[1]!, version: Number(m[2]), side: m[3] as 'request' | 'response' });
    }
  }
  return out;
}

test('captured frames from real peers decode completely and re-encode byte-exact', (t) => {
  const files = fixtureFiles();
  assert.ok(files.length >= 10, 'the wire fixtures are present');
  let checked = 0;
  for (const f of files) {
    const api = apis.find((a) => a.name === f.api);
    assert.ok(api, `${f.file}: known API`);
    const frame = fromHex(readFileSync(join(fixtureRoot, f.dir, f.file), 'utf8'));
    if (f.version > api.maxVersion) {
      // Newer than the spec snapshot: the codec must refuse it cleanly.
      assert.throws(() => (f.side === 'request' ? api.decodeRequest : api.decodeResponse)(new Reader(frame, frame.length), f.version), ProtocolError);
      continue;
    }
    const r = new Reader(frame);
    const w = new Writer();
    if (f.side === 'request') {
      const hv = requestHeaderVersion(api.apiKey, f.version);
      const header = decodeRequestHeader(r, hv);
      assert.equal(header.requestApiKey, api.apiKey);
      assert.equal(header.requestApiVersion, f.version);
      const body = api.decodeRequest(r, f.version);
      encodeRequestHeader(w, header, hv);
      api.encodeRequest(w, body, f.version);
    } else {
      const hv = responseHeaderVersion(api.apiKey, f.version);
      const correlationId = r.int32();
      if (hv >= 1) r.skipTaggedFields();
      const body = api.decodeResponse(r, f.version);
      encodeResponseHeader(w, { correlationId }, hv);
      api.encodeResponse(w, body, f.version);
    }
    assert.equal(r.remaining, 0, `${f.dir}/${f.file}: every byte read`);
    assert.equal(w.toBuffer().toString('hex'), frame.toString('hex'), `${f.dir}/${f.file}: re-encoded identically`);
    checked++;
  }
  t.diagnostic(`${checked} captured frames checked byte-exact`);
  assert.ok(checked >= 8);
});

test('the captured ApiVersions v4 response from Apache Kafka lists what it should', () => {
  const frame = fromHex(readFileSync(join(fixtureRoot, 'kafka-broker-api-versions', '01-ApiVersions-v4.response.hex'), 'utf8'));
  const r = new Reader(frame);
  r.int32(); // correlation id; header v0 even though v4 is flexible
  const res = decodeApiVersionsResponse(r, 4);
  assert.equal(res.errorCode, 0);
  const produce = res.apiKeys.find((k) => k.apiKey === 0)!;
  assert.ok(produce.maxVersion >= 11);
  // Tagged fields 0-2 (supported features, finalized epoch, finalized features) are present.
  assert.ok(res.supportedFeatures.some((f) => f.name === 'metadata.version' && f.maxVersion >= f.minVersion));
  assert.ok(res.finalizedFeaturesEpoch > 0n);
  assert.ok(res.finalizedFeatures.some((f) => f.name === 'metadata.version'));
});
