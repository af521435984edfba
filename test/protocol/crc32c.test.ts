import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32c, crc32cNative, crc32cPortable } from '../../src/protocol/crc32c.js';

test('CRC-32C check value and the iSCSI (RFC 3720) vectors', () => {
  assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
  assert.equal(crc32c(Buffer.alloc(0)), 0);
  assert.equal(crc32c(Buffer.alloc(32, 0x00)), 0x8a9136aa);
  assert.equal(crc32c(Buffer.alloc(32, 0xff)), 0x62a8ab43);
  assert.equal(crc32c(Buffer.from(Array.from({ length: 32 }, (_, i) => i))), 0x46dd794e);
  assert.equal(crc32c(Buffer.from(Array.from({ length: 32 }, (_, i) => 31 - i))), 0x113fdb5c);
});

test('native and portable paths agree on every size around the switch-over', () => {
  const buf = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24));
  for (const size of [...Array.from({ length: 600 }, (_, i) => i), 4095, 4096, 65_537, 70_000]) {
    const view = buf.subarray(0, size);
    const expected = crc32cPortable(view);
    assert.equal(crc32cNative(view), expected, `size ${size}`);
    assert.equal(crc32c(view), expected, `size ${size}`);
  }
});

test('start/end select a range without copying the caller\'s view', () => {
  const buf = Buffer.from('xx123456789yy');
  assert.equal(crc32c(buf, 2, 11), 0xe3069283);
  assert.equal(crc32c(buf, 2), crc32c(Buffer.from('123456789yy')));
  assert.equal(crc32c(buf, 5, 5), 0);
});
