// JSON numbers as Jackson keeps them, where JavaScript would print `1` for `1.0`: Java Avro reads a number written
// with a point or an exponent as a double and writes it as Double.toString does (`1.0`, `1.0E10`); Confluent's JSON
// Schema reads it as an exact BigDecimal and writes it as BigDecimal.toString does (`1.50`, `1E+10`), and an
// integer beyond 2^53 exactly. parseKeepingNumbers marks those numbers so a stored text prints them as Java does.

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

/** A number as an exact BigDecimal (or BigInteger) of its literal. */
export class JavaDecimal {
  constructor(readonly literal: string) {}

  get value(): number {
    return Number(this.literal);
  }

  /** BigDecimal.toString: plain unless the scale is negative or the adjusted exponent below -6. */
  toString(): string {
    const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(this.literal)!;
    const [, sign, whole, fraction = '', exponent = '0'] = match;
    const coefficient = (whole! + fraction).replace(/^0+(?=\d)/, '');
    const scale = fraction.length - Number(exponent);
    const negative = sign === '-' && /[1-9]/.test(coefficient) ? '-' : '';
    if (scale === 0) return negative + coefficient;
    const adjusted = -scale + coefficient.length - 1;
    if (scale > 0 && adjusted >= -6) {
      if (coefficient.length > scale) return `${negative}${coefficient.slice(0, coefficient.length - scale)}.${coefficient.slice(coefficient.length - scale)}`;
      return `${negative}0.${'0'.repeat(scale - coefficient.length)}${coefficient}`;
    }
    const mantissa = coefficient.length > 1 ? `${coefficient[0]}.${coefficient.slice(1)}` : coefficient;
    return `${negative}${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
  }
}

/** JSON.parse, with every floating-point literal a JavaDouble. */
export function parseKeepingDoubles(text: string): unknown {
  return parseKeepingNumbers(text, (literal) => (/[.eE]/.test(literal) ? new JavaDouble(Number(literal)) : Number(literal)));
}

/** JSON.parse, with every floating-point literal and every integer beyond 2^53 a JavaDecimal. */
export function parseKeepingDecimals(text: string): unknown {
  return parseKeepingNumbers(text, (literal) => (/[.eE]/.test(literal) || !Number.isSafeInteger(Number(literal)) ? new JavaDecimal(literal) : Number(literal)));
}

function parseKeepingNumbers(text: string, number: (literal: string) => unknown): unknown {
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
        // defineProperty: a "__proto__" key is a property like any other, as JSON.parse makes it.
        Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
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
    return number(literal);
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

/** JSON.stringify, a JavaDouble or JavaDecimal written as Java writes it. */
export function javaJson(value: unknown): string {
  if (value instanceof JavaDouble || value instanceof JavaDecimal) return value.toString();
  if (Array.isArray(value)) return `[${value.map(javaJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${javaJson(v)}`).join(',')}}`;
  return JSON.stringify(value);
}
