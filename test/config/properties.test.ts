import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseProperties, PropertiesSyntaxError } from '../../src/config/index.js';

test('key and value split by =, : or whitespace, with surrounding whitespace dropped', () => {
  const props = parseProperties('a=1\n  b : 2\nc    3\nd\t=\t4\ne:=5\n');
  assert.deepEqual(props, { a: '1', b: '2', c: '3', d: '4', e: '=5' });
});

test('comment lines start with # or ! after optional whitespace; blank lines are skipped', () => {
  const props = parseProperties('# comment\n! also\n   # indented comment\n\n\t\nkey=value # not a comment\n');
  assert.deepEqual(props, { key: 'value # not a comment' });
});

test('a comment line ending in a backslash does not continue', () => {
  assert.deepEqual(parseProperties('# comment \\\nkey=value\n'), { key: 'value' });
});

test('a line ending in an odd number of backslashes continues; the next line loses its leading whitespace', () => {
  const text = 'fruits  apple, banana, pear, \\\n         cantaloupe, watermelon, \\\n\tkiwi, mango\n';
  assert.deepEqual(parseProperties(text), { fruits: 'apple, banana, pear, cantaloupe, watermelon, kiwi, mango' });
});

test('an even number of trailing backslashes is an escaped backslash, not a continuation', () => {
  assert.deepEqual(parseProperties('path=c:\\\\dir\\\\\nnext=1\n'), { path: 'c:\\dir\\', next: '1' });
});

test('a continuation on the last line ends the value', () => {
  assert.deepEqual(parseProperties('key=abc\\'), { key: 'abc' });
});

test('escapes: \\t \\n \\r \\f, \\uXXXX, escaped separators in keys, any other escaped character is itself', () => {
  const props = parseProperties('key\\ with\\ spaces = v\\u0041\\t\\n\\r\\f\nk\\=e\\:y=\\#x\\q\n');
  assert.deepEqual(props, { 'key with spaces': 'vA\t\n\r\f', 'k=e:y': '#xq' });
});

test('a key alone has an empty value; a repeated key keeps the last value', () => {
  assert.deepEqual(parseProperties('cheeses\nx=1\nx=2\n'), { cheeses: '', x: '2' });
});

test('CRLF and CR line endings are line endings', () => {
  assert.deepEqual(parseProperties('a=1\r\nb=2\rc=3'), { a: '1', b: '2', c: '3' });
});

test('a malformed \\u escape is an error naming the line', () => {
  assert.throws(() => parseProperties('ok=1\nbad=\\u12G4\n'), (error: unknown) => {
    assert.ok(error instanceof PropertiesSyntaxError);
    assert.equal(error.line, 2);
    assert.match(error.message, /line 2/);
    return true;
  });
});
