/**
 * Kafka compiles the regular expressions a client sends (ListTransactions' transactional id pattern, KIP-1152) with
 * RE2/J and tests them with Matcher.matches(): the whole string must match. re2js is RE2/J's port, so a pattern
 * compiles, is refused and matches exactly as in Kafka.
 */
import { RE2JS } from 're2js';
import { KafkaError } from './kafka-error.js';

export interface FullMatchPattern {
  /** Whether the whole string matches (Matcher.matches). */
  test(input: string): boolean;
}

/** The pattern as a full-match test; throws INVALID_REGULAR_EXPRESSION with RE2's reason. */
export function compileFullMatch(pattern: string): FullMatchPattern {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new KafkaError('INVALID_REGULAR_EXPRESSION', `\`${pattern}\` is not a valid regular expression: ${reason}.`);
  }
  return { test: (input) => compiled.matches(input) };
}
