import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reader } from '../../src/protocol/io/reader.js';
import { Writer } from '../../src/protocol/io/writer.js';
import { isUuid, randomUuid, ZERO_UUID } from '../../src/protocol/uuid.js';

test('random uuids: 22 chars, version 4, never zero or starting with "-", round-trip through the codec', () => {
  for (let i = 0; i < 500; i++) {
    const id = randomUuid();
    assert.equal(id.length, 22);
    assert.ok(isUuid(id), id);
    assert.notEqual(id, ZERO_UUID);
    assert.ok(!id.startsWith('-'), id);
    const bytes = Buffer.from(id, 'base64url');
    assert.equal(bytes[6]! >> 4, 4, 'version 4');
    assert.equal(bytes[8]! >> 6, 2, 'IETF variant');
    const w = new Writer();
    w.uuid(id);
    assert.equal(new Reader(w.toBuffer()).uuid(), id);
  }
});

test('isUuid accepts the zero id and refuses other shapes', () => {
  assert.ok(isUuid(ZERO_UUID));
  for (const text of ['', 'AAAA', `${ZERO_UUID}A`, 'AAAAAAAAAAAAAAAAAAAAA=', 'AAAAAAAAAAAAAAAAAAAA+/']) assert.equal(isUuid(text), false, text);
});
