/**
 * Kafka compiles the regular expressions a client sends (ListTransactions' transactional id pattern, KIP-1152) with
 * RE2/J and tests them with Matcher.matches(): the whole string must match. This turns such a pattern into a JS
 * RegExp anchored at both ends, refusing what RE2 refuses that JS would accept (back-references, lookaround, atomic
 * groups, escapes RE2 does not know) and translating what RE2 writes differently: (?P<name>...) groups, \A, \z, \Q...\E,
 * POSIX classes in brackets ([[:alpha:]]) and a leading (?flags) group (i, m, s); \p{...} classes need JS's u flag.
 * Known gaps, refused here though RE2 accepts them: flag groups elsewhere than at the start ((?i:...)), negated
 * POSIX classes ([[:^alpha:]]) and the U (ungreedy) flag.
 */
import { KafkaError } from './kafka-error.js';

/** RE2's escapes of a letter or digit (any other punctuation may be escaped freely). */
const RE2_LETTER_ESCAPES = new Set(['a', 'f', 't', 'n', 'r', 'v', 'x', 'p', 'P', 'd', 'D', 's', 'S', 'w', 'W', 'b', 'B', 'A', 'z', 'Q', 'E', '0']);
const LEADING_FLAGS = /^\(\?([imsU]+)\)/;
/** RE2's POSIX classes, as the ranges they stand for inside brackets. */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

/** The pattern as a full-match RegExp; throws INVALID_REGULAR_EXPRESSION (with RE2's reason where known). */
export function compileFullMatch(pattern: string): RegExp {
  let source = pattern;
  let flags = '';
  const leading = LEADING_FLAGS.exec(source);
  if (leading !== null) {
    if (leading[1]!.includes('U')) throw invalid(pattern, 'the U flag is not supported here');
    flags = [...new Set(leading[1])].join('');
    source = source.slice(leading[0].length);
  }
  const translated = translate(pattern, source);
  if (/\\[pP]/.test(translated)) flags += 'u';
  try {
    return new RegExp(`^(?:${translated})$`, flags);
  } catch (error) {
    throw invalid(pattern, error instanceof Error ? error.message : String(error));
  }
}

function translate(pattern: string, source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) throw invalid(pattern, 'trailing backslash at end of expression');
      if (/[A-Za-z0-9]/.test(next) && !RE2_LETTER_ESCAPES.has(next)) throw invalid(pattern, `invalid escape sequence: \`\\${next}\``);
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const literal = source.slice(i + 2, end === -1 ? source.length : end);
        out += literal.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
        i = end === -1 ? source.length : end + 1;
        continue;
      }
      if (!inClass && next === 'A') out += '^';
      else if (!inClass && next === 'z') out += '$';
      else if (next === 'E') { /* a lone \E ends nothing */ } else out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(source.slice(i));
      if (posix !== null) {
        const ranges = POSIX_CLASSES[posix[2]!];
        if (ranges === undefined || posix[1] === '^') throw invalid(pattern, `invalid character class range: \`${posix[0]}\``);
        out += ranges;
        i += posix[0].length - 1;
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A ']' right after '[' or '[^' is a literal in RE2.
      if (source[i + 1] === '^') out += source[++i];
      if (source[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && source[i + 1] === '?') {
      const rest = source.slice(i + 2);
      if (rest.startsWith('P<')) {
        out += '(?<';
        i += 3;
        continue;
      }
      if (/^(?:=|!|<=|<!|>|P=)/.test(rest)) throw invalid(pattern, `invalid or unsupported Perl syntax: \`(?${rest.slice(0, 2)}\``);
    }
    out += c;
  }
  return out;
}

function invalid(pattern: string, reason: string): KafkaError {
  return new KafkaError('INVALID_REGULAR_EXPRESSION', `\`${pattern}\` is not a valid regular expression: ${reason}.`);
}
