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

/**
 * Why RE2/J refuses the pattern, as its PatternSyntaxException.getDescription() says it ("missing closing )"), or
 * null when it compiles. The consumer group coordinator quotes this in its INVALID_REGULAR_EXPRESSION message.
 */
export function re2SyntaxError(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    const described = error as { getDescription?: () => string; message?: string };
    return typeof described.getDescription === 'function' ? described.getDescription() : String(described.message);
  }
}
