import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatConfigValue, formatJavaDouble, LONG_MAX_VALUE } from '../../src/config/index.js';
import { parseTyped } from '../../src/config/config-types.js';

test('integers: plain decimal text, trimmed, within the Java type range', () => {
  assert.equal(parseTyped('INT', ' 42 '), 42);
  assert.equal(parseTyped('INT', '+7'), 7);
  assert.equal(parseTyped('INT', '-2147483648'), -2147483648);
  assert.equal(parseTyped('INT', '2147483648'), undefined);
  assert.equal(parseTyped('INT', '1.5'), undefined);
  assert.equal(parseTyped('INT', '1e3'), undefined);
  assert.equal(parseTyped('INT', '0x10'), undefined);
  assert.equal(parseTyped('INT', ''), undefined);
  assert.equal(parseTyped('SHORT', '32767'), 32767);
  assert.equal(parseTyped('SHORT', '32768'), undefined);
  assert.equal(parseTyped('LONG', '9223372036854775807'), LONG_MAX_VALUE);
  assert.equal(parseTyped('LONG', '9223372036854775808'), undefined);
  assert.equal(parseTyped('LONG', '-9223372036854775808'), -(2 ** 63));
});

test('booleans: true or false in any case, nothing else', () => {
  assert.equal(parseTyped('BOOLEAN', 'TRUE'), true);
  assert.equal(parseTyped('BOOLEAN', ' false '), false);
  assert.equal(parseTyped('BOOLEAN', 'yes'), undefined);
  assert.equal(parseTyped('BOOLEAN', '1'), undefined);
});

test('doubles: Java number forms', () => {
  assert.equal(parseTyped('DOUBLE', '0.25'), 0.25);
  assert.equal(parseTyped('DOUBLE', '1e-1'), 0.1);
  assert.equal(parseTyped('DOUBLE', '.5'), 0.5);
  assert.equal(parseTyped('DOUBLE', '2d'), 2);
  assert.equal(parseTyped('DOUBLE', 'abc'), undefined);
  assert.equal(parseTyped('DOUBLE', '1.2.3'), undefined);
});

test('lists split on commas with whitespace dropped; empty text is an empty list', () => {
  assert.deepEqual(parseTyped('LIST', ' compact , delete '), ['compact', 'delete']);
  assert.deepEqual(parseTyped('LIST', ''), []);
});

test('doubles print as Java prints them', () => {
  assert.equal(formatJavaDouble(0.5), '0.5');
  assert.equal(formatJavaDouble(1), '1.0');
  assert.equal(formatJavaDouble(0.9), '0.9');
  assert.equal(formatJavaDouble(Number.MAX_VALUE), '1.7976931348623157E308');
  assert.equal(formatJavaDouble(1e7), '1.0E7');
  assert.equal(formatJavaDouble(1e-4), '1.0E-4');
});

test('values print as Kafka prints them: lists comma-joined, Long.MAX_VALUE exact, null stays null', () => {
  assert.equal(formatConfigValue('LIST', ['compact', 'delete']), 'compact,delete');
  assert.equal(formatConfigValue('LONG', LONG_MAX_VALUE), '9223372036854775807');
  assert.equal(formatConfigValue('LONG', 604800000), '604800000');
  assert.equal(formatConfigValue('BOOLEAN', false), 'false');
  assert.equal(formatConfigValue('STRING', null), null);
});
