// The text Confluent stores for a Protobuf schema (its ProtobufSchemaUtils printing of the file Square's parser
// read) and its normalized form. Layout: syntax (when the file declares one), package, imports, file options, then
// every message before every enum, extends, services; inside a message, sections each after a blank line:
// reserved, options, fields (in declared order), oneofs, extensions, nested messages then enums. Types are named
// as written; options keep their kinds (a quoted string, an enum name, a number, a boolean, an aggregate) and a
// field's default and json_name come after its other options. Normalized: proto2's syntax line dropped, imports
// sorted, options sorted by name, fields, oneofs, enum constants and reserved ranges sorted by number, message
// and enum names fully qualified with a leading dot, map entry messages printed as map<k, v>.
import protobuf from 'protobufjs';
import { groupType, isMapEntry, isProto3Optional } from './protobuf-diff.js';

export interface PrintableFile {
  readonly syntax: 'proto2' | 'proto3';
  /** Whether the text declares its syntax (Confluent prints the line only then). */
  readonly syntaxDeclared: boolean;
  readonly package: string;
  readonly imports: readonly string[];
  readonly publicImports: readonly string[];
  /** The file's options in order, as name and value. */
  readonly options: readonly (readonly [string, unknown])[];
  readonly types: readonly (protobuf.Type | protobuf.Enum)[];
  readonly extensions: readonly protobuf.Field[];
  readonly services: readonly protobuf.Service[];
  /** The source text (a descriptor has none), which tells an enum-valued option from a quoted string. */
  readonly source?: string | undefined;
  /** The full name of the extension a custom option names (normalizing qualifies it). */
  readonly extensionName?: ((name: string) => string | undefined) | undefined;
}

const MAX_TAG = 536870911;
const ENUM_OPTIONS = new Set(['optimize_for', 'ctype', 'jstype', 'idempotency_level', 'retention']);

class Printer {
  constructor(private readonly file: PrintableFile, private readonly normalize: boolean) {}

  print(): string {
    const { file, normalize } = this;
    let out = '';
    if (file.syntaxDeclared && (!normalize || file.syntax === 'proto3')) out += `syntax = "${file.syntax}";\n`;
    if (file.package !== '') out += `package ${file.package};\n`;
    if (file.imports.length > 0 || file.publicImports.length > 0) {
      const sorted = (list: readonly string[]) => (normalize ? [...new Set(list)].sort() : list);
      out += `\n${sorted(file.imports).map((i) => `import "${i}";\n`).join('')}${sorted(file.publicImports).map((i) => `import public "${i}";\n`).join('')}`;
    }
    const options = this.options(file.options);
    if (options.length > 0) out += `\n${options.map((o) => `option ${o};\n`).join('')}`;
    const types = file.types.filter((t) => !(normalize && isMapEntry(t)));
    if (types.length > 0) out += `\n${this.types(types)}`;
    if (file.extensions.length > 0) out += `\n${this.extends(file.extensions)}`;
    if (file.services.length > 0) out += `\n${file.services.map((s) => this.service(s)).join('')}`;
    return out;
  }

  private types(types: readonly protobuf.ReflectionObject[]): string {
    const messages = types.filter((t): t is protobuf.Type => t instanceof protobuf.Type && !(this.normalize && isMapEntry(t)));
    const enums = types.filter((t): t is protobuf.Enum => t instanceof protobuf.Enum);
    return messages.map((m) => this.message(m)).join('') + enums.map((e) => this.enumeration(e)).join('');
  }

  private message(type: protobuf.Type): string {
    let out = `message ${type.name} {`;
    const reserved = this.reserved(type.reserved, type);
    if (reserved.length > 0) out += `\n${indent(reserved.join(''))}`;
    const options = this.options(optionList(type));
    if (options.length > 0) out += `\n${indent(options.map((o) => `option ${o};\n`).join(''))}`;
    const oneofs = type.oneofsArray.filter((o) => !(o.fieldsArray.length === 1 && isProto3Optional(o.fieldsArray[0]!)));
    const inOneof = new Set(oneofs.flatMap((o) => o.fieldsArray));
    const byTag = (fields: protobuf.Field[]) => (this.normalize ? [...fields].sort((a, b) => a.id - b.id) : fields);
    // A group (proto2) is its own section, not a field and a nested message.
    const groupOf = (f: protobuf.Field) => groupType(type, f);
    const fields = byTag(type.fieldsArray.filter((f) => !inOneof.has(f) && groupOf(f) === undefined));
    if (fields.length > 0) out += `\n${indent(fields.map((f) => this.field(f, false)).join(''))}`;
    let printedOneofs = oneofs.filter((o) => !this.normalize || o.fieldsArray.length > 0);
    if (this.normalize) printedOneofs = [...printedOneofs].sort((a, b) => Math.min(...a.fieldsArray.map((f) => f.id)) - Math.min(...b.fieldsArray.map((f) => f.id)));
    if (printedOneofs.length > 0) {
      out += `\n${indent(printedOneofs.map((o) => {
        const oneofOptions = this.options(optionList(o));
        let text = `oneof ${o.name} {`;
        if (oneofOptions.length > 0) text += `\n${indent(oneofOptions.map((x) => `option ${x};\n`).join(''))}`;
        if (o.fieldsArray.length > 0) text += `\n${indent(byTag(o.fieldsArray).map((f) => this.field(f, true)).join(''))}`;
        return `${text}}\n`;
      }).join(''))}`;
    }
    const groups = byTag(type.fieldsArray.filter((f) => !inOneof.has(f) && groupOf(f) !== undefined));
    if (groups.length > 0) {
      out += `\n${indent(groups.map((f) => {
        const group = groupOf(f)!;
        const label = f.repeated ? 'repeated ' : f.required ? 'required ' : 'optional ';
        const inner = byTag(group.fieldsArray);
        return `${label}group ${group.name} = ${f.id} {${inner.length > 0 ? `\n${indent(inner.map((g) => this.field(g, false)).join(''))}` : ''}}\n`;
      }).join(''))}`;
    }
    const ranges = this.ranges(type.extensions ?? []);
    if (ranges.length > 0) out += `\n${indent(ranges.map((r) => `extensions ${r};\n`).join(''))}`;
    const extendFields = type.nestedArray.filter((n): n is protobuf.Field => n instanceof protobuf.Field);
    if (extendFields.length > 0) out += `\n${indent(this.extends(extendFields))}`;
    const nested = type.nestedArray.filter((n) => (n instanceof protobuf.Type && !(n as unknown as { group?: boolean }).group) || n instanceof protobuf.Enum);
    const printable = nested.filter((n) => !(this.normalize && isMapEntry(n)));
    if (printable.length > 0) out += `\n${indent(this.types(printable))}`;
    return `${out}}\n`;
  }

  private enumeration(e: protobuf.Enum): string {
    let out = `enum ${e.name} {`;
    const reserved = this.reserved(e.reserved, e);
    if (reserved.length > 0) out += `\n${indent(reserved.join(''))}`;
    const options = this.options(optionList(e));
    const valuesOptions = (e as unknown as { valuesOptions?: Record<string, Record<string, unknown>> }).valuesOptions ?? {};
    let constants = Object.entries(e.values);
    if (this.normalize) constants = [...constants].sort(([an, a], [bn, b]) => a - b || (an < bn ? -1 : an > bn ? 1 : 0));
    if (reserved.length === 0 && (options.length > 0 || constants.length > 0)) out += '\n';
    out += indent(options.map((o) => `option ${o};\n`).join(''));
    out += indent(constants.map(([name, tag]) => {
      const own = this.options(Object.entries(valuesOptions[name] ?? {}));
      return `${name} = ${tag}${own.length > 0 ? ` ${bracket(own)}` : ''};\n`;
    }).join(''));
    return `${out}}\n`;
  }

  private field(field: protobuf.Field, inOneof: boolean): string {
    const syntax = this.file.syntax;
    let type = field instanceof protobuf.MapField ? `map<${field.keyType}, ${field.type}>` : field.type;
    let label: string | undefined;
    if (field.repeated) label = 'repeated';
    else if (field.required) label = syntax === 'proto2' ? 'required' : undefined;
    else if (!inOneof && !(field instanceof protobuf.MapField) && (syntax === 'proto2' || isProto3Optional(field))) label = 'optional';
    if (this.normalize) {
      const resolved = field.resolvedType;
      if (isMapEntry(resolved)) {
        const key = resolved.fieldsArray.find((f) => f.name === 'key')!;
        const value = resolved.fieldsArray.find((f) => f.name === 'value')!;
        type = `map<${key.type}, ${value.resolvedType ? value.resolvedType.fullName : value.type}>`;
        label = undefined;
      } else if (field instanceof protobuf.MapField) {
        type = `map<${field.keyType}, ${resolved ? resolved.fullName : field.type}>`;
      } else if (resolved !== null) type = resolved.fullName;
    }
    const all = optionList(field).filter(([name]) => name !== 'proto3_optional' && !(name === 'packed' && !field.repeated));
    const ordered = [...all.filter(([n]) => n !== 'default' && n !== 'json_name'), ...all.filter(([n]) => n === 'default'), ...all.filter(([n]) => n === 'json_name')];
    const options = this.options(ordered, field);
    return `${label === undefined ? '' : `${label} `}${type} ${field.name} = ${field.id}${options.length > 0 ? ` ${bracket(options)}` : ''};\n`;
  }

  private extends(fields: readonly protobuf.Field[]): string {
    const groups: [string, protobuf.Field[]][] = [];
    for (const field of fields) {
      const target = this.normalize && field.extensionField?.parent ? field.extensionField.parent.fullName : (field.extend ?? '');
      const last = groups.at(-1);
      if (last !== undefined && last[0] === target) last[1].push(field);
      else groups.push([target, [field]]);
    }
    return groups.map(([target, list]) => `extend ${target} {\n${indent(list.map((f) => this.field(f, false)).join(''))}}\n`).join('');
  }

  private service(service: protobuf.Service): string {
    let out = `service ${service.name} {`;
    const options = this.options(optionList(service));
    if (options.length > 0) out += `\n${indent(options.map((o) => `option ${o};\n`).join(''))}`;
    if (service.methodsArray.length > 0) {
      out += `\n${indent(service.methodsArray.map((m) => {
        const name = (type: string, resolved: protobuf.Type | null) => (this.normalize && resolved ? resolved.fullName : type);
        let text = `rpc ${m.name} (${m.requestStream ? 'stream ' : ''}${name(m.requestType, m.resolvedRequestType)}) returns (${m.responseStream ? 'stream ' : ''}${name(m.responseType, m.resolvedResponseType)})`;
        const own = this.options(optionList(m));
        if (own.length > 0) text += ` {\n${indent(own.map((o) => `option ${o};\n`).join(''))}}`;
        return `${text};\n`;
      }).join(''))}`;
    }
    return `${out}}\n`;
  }

  /** reserved lines: the numbers on one, the names on another (protobufjs keeps no lines); normalized: one each. */
  private reserved(reserved: readonly (number[] | string)[] | undefined, owner: protobuf.ReflectionObject): string[] {
    if (reserved === undefined || reserved.length === 0) return [];
    if (!this.normalize) {
      // The statements as the source writes them, when they say what protobufjs read.
      const written = this.written().get(localName(owner, this.file.package));
      if (written !== undefined && sameReserved(written, reserved)) return written.map((items) => `reserved ${items.map((i) => i.text).join(', ')};\n`);
    }
    const numbers = reserved.filter((r): r is number[] => Array.isArray(r));
    const names = reserved.filter((r): r is string => typeof r === 'string');
    if (this.normalize) {
      const sorted = [...numbers].sort((a, b) => a[0]! - b[0]!);
      return [...this.ranges(sorted).map((r) => `reserved ${r};\n`), ...[...names].sort().map((n) => `reserved "${n}";\n`)];
    }
    const lines: string[] = [];
    const numberLine = numbers.length > 0 ? `reserved ${this.ranges(numbers).join(', ')};\n` : undefined;
    const nameLine = names.length > 0 ? `reserved ${names.map((n) => `"${n}"`).join(', ')};\n` : undefined;
    for (const line of typeof reserved[0] === 'string' ? [nameLine, numberLine] : [numberLine, nameLine]) if (line !== undefined) lines.push(line);
    return lines;
  }

  private writtenReserved: Map<string, ReservedItem[][]> | undefined;

  private written(): Map<string, ReservedItem[][]> {
    this.writtenReserved ??= this.file.source === undefined ? new Map() : reservedStatements(this.file.source);
    return this.writtenReserved;
  }

  private ranges(ranges: readonly number[][]): string[] {
    return ranges.map(([start, end]) => (start === end ? String(start) : `${start} to ${end! >= MAX_TAG ? 'max' : end}`));
  }

  /** Options as Confluent prints them (name = value), normalized: sorted by name. */
  private options(options: readonly (readonly [string, unknown])[], field?: protobuf.Field): string[] {
    let list = options;
    if (this.normalize) {
      // A custom option's name qualified, then all sorted by name (without the parentheses), as Confluent does.
      const bare = (name: string) => name.replace(/^\(([^)]*)\)/, '$1');
      list = options.map(([name, value]): readonly [string, unknown] => {
        const custom = /^\(([^)]*)\)(.*)$/.exec(name);
        const full = custom === null ? undefined : this.file.extensionName?.(custom[1]!);
        return [full === undefined ? name : `(${full})${custom![2]}`, value];
      }).sort(([a], [b]) => (bare(a) < bare(b) ? -1 : bare(a) > bare(b) ? 1 : 0));
    }
    return list.map(([name, value]) => `${name}${this.optionValue(name, value, field)}`);
  }

  private optionValue(name: string, value: unknown, field?: protobuf.Field): string {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      // protobufjs spells `(a).b = 1` as a nested object; Confluent prints it back as written.
      if (entries.length === 1 && !isAggregate(this.file.source, name)) return `.${entries[0]![0]}${this.optionValue(entries[0]![0], entries[0]![1])}`;
      return ` = {\n${indent(entries.map(([k, v], i) => `${k}: ${this.aggregateValue(v)}${i < entries.length - 1 ? ',' : ''}\n`).join(''))}}`;
    }
    return ` = ${this.scalar(name, value, field)}`;
  }

  private aggregateValue(value: unknown): string {
    if (typeof value === 'string') return isEnumName(this.file.source, value) ? value : `"${escape(value)}"`;
    if (Array.isArray(value)) return `[\n${indent(value.map((v, i) => `${this.aggregateValue(v)}${i < value.length - 1 ? ',' : ''}\n`).join(''))}]`;
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      return `{\n${indent(entries.map(([k, v], i) => `${k}: ${this.aggregateValue(v)}${i < entries.length - 1 ? ',' : ''}\n`).join(''))}}`;
    }
    return this.number(value);
  }

  private scalar(name: string, value: unknown, field?: protobuf.Field): string {
    const text = String(value);
    if (name === 'default' && field !== undefined) {
      // A default as written (protobufjs misreads escapes and inf): a string's unescaped and escaped again as
      // Confluent does, a number, inf, nan or an enum constant as is.
      const literal = defaultLiteral(this.file.source, field);
      if (literal !== undefined) {
        if (/^["']/.test(literal)) return `"${escape(unescape(literal.slice(1, -1)))}"`;
        // Normalized, a number literal is reformatted (Confluent's formatNumber); inf, nan or a constant stay.
        const number = Number(literal);
        return this.normalize && /^[-+]?(\d|\.\d|0[xX])/.test(literal) && Number.isFinite(number) ? decimalFormat(number) : literal;
      }
      if (field.type === 'string' || field.type === 'bytes') return `"${escape(text)}"`;
      return typeof value === 'number' ? this.number(value) : text;
    }
    if (typeof value === 'boolean') return text;
    if (typeof value === 'number') return this.number(value);
    if (ENUM_OPTIONS.has(name) || isEnumValue(this.file.source, name, text)) return text;
    // protobufjs drops escapes it does not know (\" \' \a \x41 \101 ...): the literal the source wrote, read fully.
    this.stringLiterals ??= this.file.source === undefined ? new Map() : stringLiteralReadings(this.file.source);
    const readings = this.stringLiterals.get(text);
    return `"${escape(readings?.size === 1 ? [...readings][0]! : text)}"`;
  }

  private number(value: unknown): string {
    if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
    if (typeof value === 'number' && this.normalize) return decimalFormat(value);
    if (typeof value === 'number') {
      // As written (Square keeps an option's number as its text): the one spelling the options use for it.
      this.optionNumbers ??= this.file.source === undefined ? new Map() : optionNumberSpellings(this.file.source);
      const spellings = this.optionNumbers.get(value);
      if (spellings?.size === 1) return [...spellings][0]!;
    }
    return String(value);
  }

  private optionNumbers: Map<number, Set<string>> | undefined;
  private stringLiterals: Map<string, Set<string>> | undefined;
}

/** The source's string literals: what protobufjs reads of each, mapped to what it says. */
function stringLiteralReadings(source: string): Map<string, Set<string>> {
  const lossy = (protobuf as unknown as { tokenize: { unescape(text: string): string } }).tokenize.unescape;
  const out = new Map<string, Set<string>>();
  for (const match of source.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g)) {
    const raw = match[1] ?? match[2] ?? '';
    const key = lossy(raw);
    let readings = out.get(key);
    if (readings === undefined) out.set(key, (readings = new Set()));
    readings.add(unescape(raw));
  }
  return out;
}

function optionList(object: protobuf.ReflectionObject | protobuf.OneOf): [string, unknown][] {
  const { options, parsedOptions } = object as unknown as { options?: Record<string, unknown>; parsedOptions?: unknown };
  if (Array.isArray(parsedOptions) && parsedOptions.length > 0) return (parsedOptions as Record<string, unknown>[]).flatMap((o) => Object.entries(o));
  return Object.entries(options ?? {});
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the source sets `name` to the bare identifier `value` (an enum constant), not a quoted string. */
function isEnumValue(source: string | undefined, name: string, value: string): boolean {
  if (source === undefined || !/^[A-Za-z_][\w.]*$/.test(value)) return false;
  return new RegExp(`${escapeRegExp(name)}\\s*=\\s*${escapeRegExp(value)}\\b`).test(source);
}

function isEnumName(source: string | undefined, value: string): boolean {
  return source !== undefined && /^[A-Za-z_]\w*$/.test(value) && new RegExp(`:\\s*${escapeRegExp(value)}\\b`).test(source);
}

function isAggregate(source: string | undefined, name: string): boolean {
  return source !== undefined && new RegExp(`${escapeRegExp(name)}\\s*=\\s*\\{`).test(source);
}

/** A field's `default` literal as its source writes it. */
function defaultLiteral(source: string | undefined, field: protobuf.Field): string | undefined {
  if (source === undefined) return undefined;
  const pattern = new RegExp(`\\b${escapeRegExp(field.name)}\\s*=\\s*${field.id}\\s*\\[[^\\]]*?\\bdefault\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'(?:[^'\\\\]|\\\\.)*'|[^,\\]\\s]+)`);
  return pattern.exec(source)?.[1];
}

/** A protobuf string literal's escapes read (simple, octal, hex and \\u ones), as Square's parser reads them. */
function unescape(text: string): string {
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  return text.replace(/\\(?:([0-7]{1,3})|[xX]([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{4})|(.))/g, (_m, octal: string, hex: string, unicode: string, other: string) => {
    if (octal !== undefined) return String.fromCharCode(parseInt(octal, 8));
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    if (unicode !== undefined) return String.fromCharCode(parseInt(unicode, 16));
    return simple[other] ?? other;
  });
}

/** Confluent's escapeChars. */
function escape(text: string): string {
  const map: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', "'": "\\'", '"': '\\"' };
  return [...text].map((c) => map[c] ?? c).join('');
}

/** One value of a `reserved` statement: its text as Confluent prints it, and what it reserves. */
interface ReservedItem {
  readonly text: string;
  readonly value: string | readonly [number, number];
}

/** A message's or enum's name below the package (A.B), the key of its written reserved statements. */
function localName(owner: protobuf.ReflectionObject, pkg: string): string {
  const full = owner.fullName.replace(/^\./, '');
  return pkg !== '' && full.startsWith(`${pkg}.`) ? full.slice(pkg.length + 1) : full;
}

/** Each message's and enum's `reserved` statements in the source, by its name below the package. */
function reservedStatements(source: string): Map<string, ReservedItem[][]> {
  const out = new Map<string, ReservedItem[][]>();
  const tokens = (protobuf as unknown as { tokenize(source: string, alternate: boolean): { next(): string | null; peek(): string | null } }).tokenize(source, true);
  const stack: string[] = [];
  let previous: string | null = null;
  let pendingName: string | undefined;
  for (let token = tokens.next(); token !== null; token = tokens.next()) {
    if (token === '"' || token === "'") {
      // A string literal (its content and closing quote come as two more tokens): no brace in it counts.
      tokens.next();
      tokens.next();
      previous = 'string';
      continue;
    }
    if ((previous === 'message' || previous === 'enum') && /^[A-Za-z_]\w*$/.test(token)) pendingName = token;
    else if (token === '{') {
      stack.push(pendingName ?? '~');
      pendingName = undefined;
    } else if (token === '}') stack.pop();
    else if (token === 'reserved' && stack.length > 0 && !stack.includes('~')) {
      const items: ReservedItem[] = [];
      let current: string[] = [];
      const flush = () => {
        if (current.length === 0) return;
        if (current[0] === '"' || current[0] === "'") items.push({ text: `"${current[1] ?? ''}"`, value: current[1] ?? '' });
        else {
          const start = Number(current[0]);
          const end = current[1] === 'to' ? (current[2] === 'max' ? MAX_TAG : Number(current[2])) : start;
          const text = current[1] === 'to' ? `${start} to ${end >= MAX_TAG ? 'max' : end}` : String(start);
          items.push({ text, value: [start, end] });
        }
        current = [];
      };
      for (let part = tokens.next(); part !== null && part !== ';'; part = tokens.next()) {
        if (part === ',') flush();
        else current.push(part);
      }
      flush();
      const key = stack.join('.');
      out.set(key, [...(out.get(key) ?? []), items]);
      previous = ';';
      continue;
    }
    previous = token;
  }
  return out;
}

/** The spellings of the numbers in option statements and option brackets, by value (`1.0` and `1` both for 1). */
function optionNumberSpellings(source: string): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const tokens = (protobuf as unknown as { tokenize(source: string, alternate: boolean): { next(): string | null } }).tokenize(source, true);
  let inOption = false;
  let brackets = 0;
  let negative = false;
  for (let token = tokens.next(); token !== null; token = tokens.next()) {
    if (token === '"' || token === "'") {
      tokens.next();
      tokens.next();
      continue;
    }
    if (token === 'option') inOption = true;
    else if (token === ';') inOption = false;
    else if (token === '[') brackets++;
    else if (token === ']') brackets = Math.max(0, brackets - 1);
    if ((inOption || brackets > 0) && /^-?(?:\d|\.\d)/.test(token)) {
      const text = `${negative ? '-' : ''}${token}`;
      const value = Number(text);
      if (Number.isFinite(value)) {
        let spellings = out.get(value);
        if (spellings === undefined) out.set(value, (spellings = new Set()));
        spellings.add(text);
      }
    }
    negative = token === '-';
  }
  return out;
}

/** Whether the written statements reserve what protobufjs read (the same ranges and names). */
function sameReserved(written: readonly ReservedItem[][], read: readonly (number[] | string)[]): boolean {
  const key = (v: string | readonly number[]) => (typeof v === 'string' ? `s:${v}` : `n:${v[0]}-${Math.min(v[1]!, MAX_TAG)}`);
  const a = written.flat().map((i) => key(i.value)).sort();
  const b = read.map((v) => key(v)).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** Java's `new DecimalFormat()` without grouping (Confluent's normalized numbers): at most three decimals, half-even. */
function decimalFormat(value: number): string {
  if (Number.isInteger(value)) return BigInt(value).toString();
  const scaled = value * 1000;
  // An exact tie (0.0625) rounds to the even neighbour; toFixed would round it up.
  let rounded = Math.abs(scaled % 1) === 0.5 ? Math.floor(scaled) + (Math.floor(scaled) % 2 === 0 ? 0 : 1) : Math.round(scaled);
  if (Object.is(rounded, -0)) rounded = 0;
  const sign = rounded < 0 ? '-' : '';
  const digits = BigInt(Math.abs(rounded)).toString().padStart(4, '0');
  const whole = digits.slice(0, -3).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-3).replace(/0+$/, '');
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Options inside brackets: one on the line, several one per line. */
function bracket(options: readonly string[]): string {
  return options.length === 1 ? `[${options[0]}]` : `[\n${indent(options.map((o, i) => `${o}${i < options.length - 1 ? ',' : ''}\n`).join(''))}]`;
}

/** Confluent's appendIndented: each line two spaces in. */
function indent(text: string): string {
  if (text === '') return '';
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((line) => `  ${line}\n`).join('');
}

export function printFile(file: PrintableFile, normalize = false): string {
  return new Printer(file, normalize).print();
}
