// Every error-response builder, at every version of its API, for random valid requests: the answer
// encodes (no field set that the version lacks), decodes, and carries only the error it was given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import { errorResponses } from '../../../src/protocol/error-responses/index.js';
import { Reader } from '../../../src/protocol/io/reader.js';
import { Writer } from '../../../src/protocol/io/writer.js';
import { schemas } from '../generated/schemas.js';
import { randomMessage, seededRng } from '../codec-random.js';

const ROUNDS_PER_VERSION = 8;
const ERROR_FIELDS = new Set(['errorCode', 'partitionErrorCode']);

/** Every value of an error-code field anywhere in a decoded message. */
function errorCodes(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) for (const item of value) errorCodes(item, out);
  else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, field] of Object.entries(value)) {
      if (ERROR_FIELDS.has(key) && typeof field === 'number') out.push(field);
      else errorCodes(field, out);
    }
  }
  return out;
}

for (const builder of errorResponses.values()) {
  const { api } = builder;
  test(`${api.name}: the error response encodes at every version and carries only the given error`, () => {
    const schema = schemas.find((s) => s.name === `${api.name}Request`);
    assert.ok(schema, `schema of ${api.name}Request`);
    const code = ErrorCode.UNKNOWN_SERVER_ERROR;
    let carried = 0;
    for (let version = api.minVersion; version <= api.maxVersion; version++) {
      const rng = seededRng(api.apiKey * 100 + version);
      for (let round = 0; round < ROUNDS_PER_VERSION; round++) {
        const request = randomMessage(schema, version, rng);
        const response = builder.build(request, version, { code, message: null });
        if (response === null) continue;
        const w = new Writer();
        api.encodeResponse(w, response, version);
        const decoded = api.decodeResponse(new Reader(w.toBuffer()), version);
        const codes = errorCodes(decoded).filter((c) => c !== ErrorCode.NONE);
        assert.ok(codes.every((c) => c === code), `${api.name} v${version}: codes ${codes.join(',')}`);
        if (codes.length > 0) carried++;
      }
    }
    assert.ok(carried > 0, `${api.name}: some error response carried the error`);
  });
}

test('Produce with acks=0 has no error response (Kafka closes the connection)', () => {
  const produce = errorResponses.get(0)!;
  const request = { transactionalId: null, acks: 0, timeoutMs: 1000, topicData: [{ name: 't', partitionData: [{ index: 0, records: null }] }] };
  assert.equal(produce.build(request, 9, { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null }), null);
  const answered = produce.build({ ...request, acks: 1 }, 9, { code: ErrorCode.NOT_ENOUGH_REPLICAS, message: 'why' }) as {
    responses: { name: string; partitionResponses: { index: number; errorCode: number; errorMessage: string | null; baseOffset: bigint }[] }[];
  };
  assert.deepEqual(
    answered.responses.map((t) => [t.name, t.partitionResponses.map((p) => [p.index, p.errorCode, p.errorMessage, p.baseOffset])]),
    [['t', [[0, ErrorCode.NOT_ENOUGH_REPLICAS, 'why', -1n]]]],
  );
});

test('Produce v13: the error response names each topic by the id asked (partitions of the same id together)', () => {
  const produce = errorResponses.get(0)!;
  const [a, b] = ['AAAAAAAAAAAAAAAAAAAAAQ', 'AAAAAAAAAAAAAAAAAAAAAg'];
  const byId = (topicId: string, index: number) => ({ name: '', topicId, partitionData: [{ index, records: null }] });
  const request = { transactionalId: null, acks: -1, timeoutMs: 1000, topicData: [byId(a, 0), byId(b, 0), byId(a, 1)] };
  const answered = produce.build(request, 13, { code: ErrorCode.NOT_ENOUGH_REPLICAS, message: null }) as {
    responses: { name: string; topicId: string; partitionResponses: { index: number; errorCode: number }[] }[];
  };
  assert.deepEqual(
    answered.responses.map((t) => [t.name, t.topicId, t.partitionResponses.map((p) => [p.index, p.errorCode])]),
    [
      ['', a, [[0, ErrorCode.NOT_ENOUGH_REPLICAS], [1, ErrorCode.NOT_ENOUGH_REPLICAS]]],
      ['', b, [[0, ErrorCode.NOT_ENOUGH_REPLICAS]]],
    ],
  );
});

test('Fetch: partitions carry the error before v13; from v13 only the top-level code does', () => {
  const fetch = errorResponses.get(1)!;
  const request = {
    sessionId: 7, topics: [{ topic: 'a', topicId: 'AAAAAAAAAAAAAAAAAAAAAA', partitions: [{ partition: 2 }, { partition: 5 }] }],
  };
  type Answer = { errorCode: number; sessionId: number; responses: { topic: string; partitions: { partitionIndex: number; errorCode: number; highWatermark: bigint }[] }[] };
  const v12 = fetch.build(request, 12, { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null }) as Answer;
  assert.equal(v12.errorCode, ErrorCode.UNKNOWN_SERVER_ERROR);
  assert.equal(v12.sessionId, 7);
  assert.deepEqual(v12.responses[0]!.partitions.map((p) => [p.partitionIndex, p.errorCode, p.highWatermark]), [
    [2, ErrorCode.UNKNOWN_SERVER_ERROR, -1n], [5, ErrorCode.UNKNOWN_SERVER_ERROR, -1n],
  ]);
  const v13 = fetch.build(request, 13, { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null }) as Answer;
  assert.equal(v13.errorCode, ErrorCode.UNKNOWN_SERVER_ERROR);
  assert.deepEqual(v13.responses, []);
});

test('Metadata: every requested topic, a null name answered as ""', () => {
  const metadata = errorResponses.get(3)!;
  const answer = metadata.build({ topics: [{ name: 'x', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }, { name: null, topicId: 'AAAAAAAAAAAAAAAAAAAAAQ' }] }, 12, {
    code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null,
  }) as { topics: { name: string; topicId: string; errorCode: number; partitions: unknown[] }[] };
  assert.deepEqual(answer.topics.map((t) => [t.name, t.topicId, t.errorCode, t.partitions.length]), [
    ['x', 'AAAAAAAAAAAAAAAAAAAAAA', ErrorCode.UNKNOWN_SERVER_ERROR, 0],
    ['', 'AAAAAAAAAAAAAAAAAAAAAQ', ErrorCode.UNKNOWN_SERVER_ERROR, 0],
  ]);
});

test('Metadata: every requested topic carries the error; v13 adds it at the top level (MetadataRequest.getErrorResponse)', () => {
  const metadata = errorResponses.get(3)!;
  const request = { topics: [{ name: 'a', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }, { name: null, topicId: 'b2-lGxk1Sr2W9nZ3Xb7y8g' }] };
  type Answer = { errorCode: number; topics: { name: string | null; topicId: string; errorCode: number }[] };
  for (const version of [12, 13]) {
    const answer = metadata.build(request, version, { code: ErrorCode.UNKNOWN_SERVER_ERROR, message: null }) as Answer;
    const w = new Writer();
    metadata.api.encodeResponse(w, answer, version);
    const decoded = metadata.api.decodeResponse(new Reader(w.toBuffer()), version) as Answer;
    assert.equal(decoded.errorCode, version >= 13 ? ErrorCode.UNKNOWN_SERVER_ERROR : ErrorCode.NONE, `v${version}`);
    assert.deepEqual(decoded.topics.map((t) => [t.name, t.topicId, t.errorCode]), [
      ['a', 'AAAAAAAAAAAAAAAAAAAAAA', ErrorCode.UNKNOWN_SERVER_ERROR],
      ['', 'b2-lGxk1Sr2W9nZ3Xb7y8g', ErrorCode.UNKNOWN_SERVER_ERROR],
    ]);
  }
});
