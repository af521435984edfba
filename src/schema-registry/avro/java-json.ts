// JSON numbers as Java Avro keeps them: Jackson reads a number written with a point or an exponent as a double and
// writes it back as Java's Double.toString does (`1.0`, `100.0`, `1.0E10`), where JavaScript would print `1`,
// `100`, `10000000000`. parseKeepingDoubles marks those numbers so the stored text can print them as Java does.

/** A number written as a floating-point literal. */
export class JavaDouble {
  constructor(readonly value: number) {}

  /** Java's Double.toString: plain between 10^-3 and 10^7, else d.dddE±n; always a digit after the point. */
  toString(): string {
    const d = this.value;
    if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
    const magnitude = Math.abs(d);
    if (magnitude >= 1e-3 && magnitude < 1e7) {
      const plain = String(d);
      return plain.includes('.') ? plain : `${plain}.0`;
    }
    const [mantissa, exponent] = d.toExponential().split('e') as [string, string];
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.replace('+', '')}`;
  }
}

/** JSON.parse, with every floating-point literal a JavaDouble. */
export function parseKeepingDoubles(text: string): unknown {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const value = (): unknown => {
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      const out: Record<string, unknown> = {};
      space();
      if (text[at] === '}') return at++, out;
      for (;;) {
        space();
        const key = string();
        space();
        if (text[at++] !== ':') throw new SyntaxError(`Expected ':' at position ${at - 1}`);
        out[key] = value();
        space();
        const next = text[at++];
        if (next === '}') return out;
        if (next !== ',') throw new SyntaxError(`Expected ',' or '}' at position ${at - 1}`);
      }
    }
    if (c === '[') {
      at++;
      const out: unknown[] = [];
      space();
      if (text[at] === ']') return at++, out;
      for (;;) {
        out.push(value());
        space();
        const next = text[at++];
        if (next === ']') return out;
        if (next !== ',') throw new SyntaxError(`Expected ',' or ']' at position ${at - 1}`);
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at))?.[0];
    if (literal === undefined) throw new SyntaxError(`Unexpected token at position ${at}`);
    at += literal.length;
    if (literal === 'true' || literal === 'false' || literal === 'null') return JSON.parse(literal) as unknown;
    return /[.eE]/.test(literal) ? new JavaDouble(Number(literal)) : Number(literal);
  };
  const string = (): string => {
    const match = /^"(?:[^"\\\u0000-\u001f]|\\.)*"/.exec(text.slice(at));
    if (match === null) throw new SyntaxError(`Expected a string at position ${at}`);
    at += match[0].length;
    return JSON.parse(match[0]) as string;
  };
  const result = value();
  space();
  if (at !== text.length) throw new SyntaxError(`Unexpected data at position ${at}`);
  return result;
}

/** JSON.stringify, a JavaDouble written as Java writes it. */
export function javaJson(value: unknown): string {
  if (value instanceof JavaDouble) return value.toString();
  if (Array.isArray(value)) return `[${value.map(javaJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${javaJson(v)}`).join(',')}}`;
  return JSON.stringify(value);
}
