// An inline JAAS configuration (sasl.jaas.config) read as Kafka's JaasConfig reads it: one or more
// `LoginModuleClass Flag key=value ... ;` entries, values bare words or double-quoted strings.
// Errors are Kafka's one-line messages and never repeat a value (values are passwords).

export interface JaasLoginModule {
  readonly loginModule: string;
  readonly flag: 'required' | 'requisite' | 'sufficient' | 'optional';
  readonly options: ReadonlyMap<string, string>;
}

export const PLAIN_LOGIN_MODULE = 'org.apache.kafka.common.security.plain.PlainLoginModule';

const FLAGS = new Set(['required', 'requisite', 'sufficient', 'optional']);

type Token = { kind: 'word' | 'quoted'; text: string } | { kind: '=' | ';' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '=' || c === ';') {
      tokens.push({ kind: c });
      i++;
    } else if (c === '"') {
      let value = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      if (i >= text.length) throw new Error('JAAS config entry not terminated by semi-colon');
      i++;
      tokens.push({ kind: 'quoted', text: value });
    } else {
      let word = '';
      while (i < text.length && !/[\s=;"]/.test(text[i]!)) word += text[i++];
      tokens.push({ kind: 'word', text: word });
    }
  }
  return tokens;
}

/** Parses the entries; throws an Error with Kafka's one-line reason. */
export function parseJaasConfig(text: string): JaasLoginModule[] {
  const tokens = tokenize(text);
  const modules: JaasLoginModule[] = [];
  let at = 0;
  while (at < tokens.length) {
    const name = tokens[at++]!;
    if (name.kind !== 'word') throw new Error('Login module not specified in JAAS config');
    const flag = tokens[at++];
    if (flag === undefined || flag.kind !== 'word') throw new Error('Login module control flag not specified in JAAS config');
    if (!FLAGS.has(flag.text.toLowerCase())) throw new Error(`Invalid login module control flag '${flag.text}' in JAAS config`);
    const options = new Map<string, string>();
    for (;;) {
      const token = tokens[at++];
      if (token === undefined) throw new Error('JAAS config entry not terminated by semi-colon');
      if (token.kind === ';') break;
      if (token.kind !== 'word') throw new Error('JAAS config entry not terminated by semi-colon');
      if (tokens[at]?.kind !== '=') throw new Error(`Value not specified for key '${token.text}' in JAAS config`);
      const value = tokens[at + 1];
      if (value === undefined || (value.kind !== 'word' && value.kind !== 'quoted')) {
        throw new Error(`Value not specified for key '${token.text}' in JAAS config`);
      }
      options.set(token.text, value.text);
      at += 2;
    }
    modules.push({ loginModule: name.text, flag: flag.text.toLowerCase() as JaasLoginModule['flag'], options });
  }
  if (modules.length === 0) throw new Error('Login module not specified in JAAS config');
  return modules;
}

/** PlainLoginModule's users: each user_<name>="<password>" option, as Kafka's PlainServerCallbackHandler reads them. */
export function plainUsersOf(modules: readonly JaasLoginModule[]): Map<string, string> {
  const users = new Map<string, string>();
  for (const module of modules) {
    if (module.loginModule !== PLAIN_LOGIN_MODULE) continue;
    for (const [key, value] of module.options) if (key.startsWith('user_')) users.set(key.slice('user_'.length), value);
  }
  return users;
}
