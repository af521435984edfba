// RE2 patterns as Kafka compiles and matches them (RE2/J, Matcher.matches): what Kafka 4.3.1's ListTransactions
// accepted and refused against compat-tests/reference is marked "reference".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { KafkaError } from '../../src/protocol/kafka-error.js';
import { compileFullMatch } from '../../src/protocol/re2-pattern.js';

const matches = (pattern: string, ids: string[]): string[] => ids.filter((id) => compileFullMatch(pattern).test(id));

test('the whole id must match; RE2 syntax JS writes differently is translated', () => {
  const ids = ['tx-a', 'tx-b1', 'TX-A', 'x.y', 'a\\b'];
  assert.deepEqual(matches('tx-.', ids), ['tx-a']); // reference
  assert.deepEqual(matches('tx', ids), []); // reference
  assert.deepEqual(matches('(?i)TX-A', ids), ['tx-a', 'TX-A']); // reference
  assert.deepEqual(matches('(?P<n>tx)-a', ids), ['tx-a']); // reference
  assert.deepEqual(matches('\\Atx-\\w+\\z', ids), ['tx-a', 'tx-b1']);
  assert.deepEqual(matches('\\Qx.y\\E', ids), ['x.y']);
  assert.deepEqual(matches('x\\.y|tx-a', ids), ['tx-a', 'x.y']);
  assert.deepEqual(matches('[]a-]\\\\b|[^x]x-a', ids), ['tx-a', 'a\\b']);
  assert.deepEqual(matches('\\p{Lu}X-A', ids), ['TX-A']);
  assert.deepEqual(matches('[[:alpha:]]x-a', ids), ['tx-a']); // reference
  assert.deepEqual(matches('[[:upper:][:punct:]]+A', ids), ['TX-A']); // reference
});

test('RE2 syntax JS has no form for: inner flag groups, negated POSIX classes, ungreedy', () => {
  const ids = ['tx-a', 'TX-A', 'tx-aa', 'x1'];
  assert.deepEqual(matches('tx-(?i:A)', ids), ['tx-a']);
  assert.deepEqual(matches('[[:^alpha:]]x-a', ids), []);
  assert.deepEqual(matches('x[[:^alpha:]]', ids), ['x1']);
  assert.deepEqual(matches('(?U)tx-a+', ids), ['tx-a', 'tx-aa']);
});

test('what RE2 refuses is INVALID_REGULAR_EXPRESSION, JS-only syntax included (reference)', () => {
  for (const pattern of ['(', '(a)\\1', '(?=t)tx-a', '(?!t)x', '(?<=t)x', '(?>x)', '(?P=n)', '\\k<n>', 'a\\', '*a', '[[:bogus:]]']) {
    assert.throws(() => compileFullMatch(pattern), (error: unknown) => error instanceof KafkaError && error.errorCode === ErrorCode.INVALID_REGULAR_EXPRESSION, pattern);
  }
});
