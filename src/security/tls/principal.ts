// The principal of a TLS client, as Kafka's DefaultKafkaPrincipalBuilder makes it: "User:" + the name that
// ssl.principal.mapping.rules (SslPrincipalMapper) gives the certificate's subject in RFC 2253 form (what Java's
// X500Principal.getName() returns: most specific RDN first, "CN=client,OU=eng,O=acme"); User:ANONYMOUS without one.
import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { ANONYMOUS } from '../principal.js';

// Kafka's rule grammar: DEFAULT, or RULE:pattern/replacement/[LU], comma separated.
const RULE_PATTERN = String.raw`(DEFAULT)|RULE:((\\.|[^\\/])*)/((\\.|[^\\/])*)/([LU]?).*?|(.*?)`;
const RULE_SPLITTER = new RegExp(String.raw`\s*(` + RULE_PATTERN + String.raw`)\s*(,\s*|$)`, 'gy');
const RULE_PARSER = new RegExp('^(?:' + RULE_PATTERN + ')');

interface Rule {
  readonly isDefault: boolean;
  readonly pattern?: RegExp;
  readonly replacement?: string;
  readonly caseFold?: 'L' | 'U';
  readonly text: string;
}

export class SslPrincipalMapper {
  private readonly rules: Rule[];

  /** Throws an Error naming the bad rule, as Kafka's constructor does (a start-up error). */
  constructor(rules: string) {
    this.rules = parseRules(splitRules(rules));
  }

  /** The principal name for a distinguished name; throws when no rule applies (Kafka: NoMatchingRule). */
  name(distinguishedName: string): string {
    for (const rule of this.rules) {
      const name = applyRule(rule, distinguishedName);
      if (name !== null) return name;
    }
    throw new Error(`No rules apply to ${distinguishedName}, rules [${this.rules.map((r) => r.text).join(', ')}]`);
  }
}

function splitRules(text: string): string[] {
  const out: string[] = [];
  const input = text.trim();
  RULE_SPLITTER.lastIndex = 0;
  // Java's Matcher.find() scans forward; a sticky regex advanced by hand does the same on this grammar.
  for (let at = 0; at <= input.length; ) {
    RULE_SPLITTER.lastIndex = at;
    const match = RULE_SPLITTER.exec(input);
    if (match === null) {
      at++;
      continue;
    }
    out.push(match[1]!);
    if (RULE_SPLITTER.lastIndex === at) {
      // An empty match at the end: stop, as find() would after the last one.
      break;
    }
    at = RULE_SPLITTER.lastIndex;
  }
  return out;
}

function parseRules(texts: string[]): Rule[] {
  const rules: Rule[] = [];
  for (const text of texts) {
    const match = RULE_PARSER.exec(text);
    if (match === null) throw new Error(`Invalid rule: ${text}`);
    if (match[0].length !== text.length) {
      throw new Error(`Invalid rule: \`${text}\`, unmatched substring: \`${text.slice(match[0].length)}\``);
    }
    if (match[1] !== undefined) rules.push({ isDefault: true, text: 'DEFAULT' });
    else if (match[2] !== undefined) {
      const fold = match[6] === 'L' || match[6] === 'U' ? match[6] : undefined;
      rules.push({ isDefault: false, pattern: new RegExp(match[2]), replacement: match[4]!, ...(fold === undefined ? {} : { caseFold: fold }), text });
    }
    // An empty rule is ignored, as in Kafka.
  }
  return rules;
}

function applyRule(rule: Rule, dn: string): string | null {
  if (rule.isDefault) return dn;
  const whole = new RegExp(`^(?:${rule.pattern!.source})$`);
  if (!whole.test(dn)) return null;
  // Java's replaceAll over the whole name; its $n back references are JavaScript's too.
  const result = dn.replace(new RegExp(rule.pattern!.source, 'g'), rule.replacement!);
  return rule.caseFold === 'L' ? result.toLowerCase() : rule.caseFold === 'U' ? result.toUpperCase() : result;
}

const RFC2253_SPECIAL = /[,+"\\<>;]/g;

/**
 * The subject in RFC 2253 form, as Java's X500Principal.getName() writes it. X509Certificate's subject keeps the
 * certificate's RDN order (one "KEY=value" a line); RFC 2253 lists them last first.
 */
export function distinguishedName(cert: PeerCertificate): string {
  const lines = new X509Certificate(cert.raw).subject.split('\n').filter((line) => line !== '');
  return lines.reverse().map((line) => {
    const eq = line.indexOf('=');
    return `${line.slice(0, eq)}=${escapeValue(line.slice(eq + 1))}`;
  }).join(',');
}

function escapeValue(value: string): string {
  let escaped = value.replace(RFC2253_SPECIAL, (c) => `\\${c}`);
  if (escaped.startsWith(' ') || escaped.startsWith('#')) escaped = `\\${escaped}`;
  if (escaped.endsWith(' ') && !escaped.endsWith('\\ ')) escaped = `${escaped.slice(0, -1)}\\ `;
  return escaped;
}

/** The principal of an authenticated TLS peer, or ANONYMOUS when it presented no certificate (ssl.client.auth=requested/none). */
export function tlsPrincipal(cert: PeerCertificate | undefined, mapper: SslPrincipalMapper): string {
  if (cert === undefined || cert.raw === undefined) return ANONYMOUS;
  const dn = distinguishedName(cert);
  try {
    return `User:${mapper.name(dn)}`;
  } catch (err) {
    // Kafka's DefaultKafkaPrincipalBuilder message; the connection is closed.
    throw new Error(`Failed to map name for '${dn}' based on SSL principal mapping rules.`, { cause: err });
  }
}
