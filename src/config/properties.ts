// Reads the java.util.Properties text format that server.properties uses:
// '#' or '!' comment lines, key and value split by '=', ':' or whitespace, a trailing odd backslash
// continuing the line (the next line's leading whitespace dropped), and \t \n \r \f \uXXXX escapes.

/** A malformed properties file: says which line. */
export class PropertiesSyntaxError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'PropertiesSyntaxError';
    this.line = line;
  }
}

const WHITESPACE = new Set([' ', '\t', '\f']);

/** Parses properties text into key/value pairs; a repeated key keeps its last value. */
export function parseProperties(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let logical = skipLeadingWhitespace(lines[i]!);
    if (logical === '' || logical[0] === '#' || logical[0] === '!') continue;
    // A natural line ending in an odd number of backslashes continues on the next one.
    while (endsWithOddBackslashes(logical)) {
      logical = logical.slice(0, -1);
      i++;
      if (i >= lines.length) break;
      logical += skipLeadingWhitespace(lines[i]!);
    }
    const [rawKey, rawValue] = splitKeyValue(logical);
    result[unescape(rawKey, startLine)] = unescape(rawValue, startLine);
  }
  return result;
}

function skipLeadingWhitespace(line: string): string {
  let start = 0;
  while (start < line.length && WHITESPACE.has(line[start]!)) start++;
  return line.slice(start);
}

function endsWithOddBackslashes(line: string): boolean {
  let count = 0;
  for (let j = line.length - 1; j >= 0 && line[j] === '\\'; j--) count++;
  return count % 2 === 1;
}

/** Key ends at the first unescaped '=', ':' or whitespace; then whitespace, one optional separator, whitespace. */
function splitKeyValue(line: string): [string, string] {
  let keyEnd = 0;
  while (keyEnd < line.length) {
    const c = line[keyEnd]!;
    if (c === '\\') { keyEnd += 2; continue; }
    if (c === '=' || c === ':' || WHITESPACE.has(c)) break;
    keyEnd++;
  }
  keyEnd = Math.min(keyEnd, line.length);
  let valueStart = keyEnd;
  while (valueStart < line.length && WHITESPACE.has(line[valueStart]!)) valueStart++;
  if (valueStart < line.length && (line[valueStart] === '=' || line[valueStart] === ':')) valueStart++;
  while (valueStart < line.length && WHITESPACE.has(line[valueStart]!)) valueStart++;
  return [line.slice(0, keyEnd), line.slice(valueStart)];
}

const SIMPLE_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function unescape(text: string, line: number): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\') { out += c; continue; }
    const next = text[++i];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = text.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PropertiesSyntaxError(line, 'malformed \\uxxxx escape');
      out += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else {
      out += SIMPLE_ESCAPES[next] ?? next;
    }
  }
  return out;
}
