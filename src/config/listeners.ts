// Kafka's listener form, NAME://host:port, as listeners and advertised.listeners hold it.
// An empty host means all interfaces (for listeners); IPv6 hosts are written in brackets.
// The name's security protocol comes from listener.security.protocol.map; gregor serves all four of Kafka's.
import { ConfigError } from './config-types.js';

export interface Listener {
  /** Listener name, upper-cased as Kafka normalises it (PLAINTEXT, CLIENT, ...). */
  name: string;
  /** Host to bind or advertise; '' = all interfaces. IPv6 without brackets. */
  host: string;
  /** 0..65535; 0 = an ephemeral port chosen at bind time. */
  port: number;
  /** From listener.security.protocol.map: SSL and SASL_SSL listeners speak TLS (security/tls/). */
  securityProtocol: SecurityProtocol;
}

export type SecurityProtocol = 'PLAINTEXT' | 'SSL' | 'SASL_PLAINTEXT' | 'SASL_SSL';
const SECURITY_PROTOCOLS: readonly SecurityProtocol[] = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'];

/** Kafka's default listener.security.protocol.map: each protocol's name maps to itself. */
export const DEFAULT_SECURITY_PROTOCOL_MAP = 'SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT';

const LISTENER_FORM = /^([^:/\s]+):\/\/(?:\[([0-9a-zA-Z\-%._:]*)\]|([0-9a-zA-Z\-%._]*)):(-?\d+)$/;

/** Parses listener.security.protocol.map ("NAME:PROTOCOL,..."); throws ConfigError naming that key. */
export function parseSecurityProtocolMap(text: string): Map<string, SecurityProtocol> {
  const key = 'listener.security.protocol.map';
  const map = new Map<string, SecurityProtocol>();
  for (const entry of text.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    const [name, protocol, ...rest] = entry.split(':').map((p) => p.trim());
    const upper = protocol?.toUpperCase();
    if (name === undefined || name === '' || rest.length > 0 || !SECURITY_PROTOCOLS.includes(upper as SecurityProtocol)) {
      throw new ConfigError(key, `Invalid value ${JSON.stringify(entry)} for configuration ${key}: ` +
        `expects NAME:PROTOCOL pairs, PROTOCOL one of ${SECURITY_PROTOCOLS.join(', ')}`);
    }
    map.set(name.toUpperCase(), upper as SecurityProtocol);
  }
  return map;
}

export interface ParseListenersOptions {
  /** The key the values came from, for error lines (default 'listeners'). */
  key?: string;
  /** listener.security.protocol.map text (default Kafka's). */
  securityProtocolMap?: string;
}

/**
 * Parses NAME://host:port entries. Throws ConfigError (one line, naming the key) on a malformed entry,
 * a port outside 0..65535, a repeated name, or a name without a security protocol.
 */
export function parseListeners(values: string[], options: ParseListenersOptions = {}): Listener[] {
  const key = options.key ?? 'listeners';
  const protocols = parseSecurityProtocolMap(options.securityProtocolMap ?? DEFAULT_SECURITY_PROTOCOL_MAP);
  const fail = (value: string, why: string) =>
    new ConfigError(key, `Invalid value ${JSON.stringify(value)} for configuration ${key}: ${why}`);
  const listeners: Listener[] = [];
  for (const raw of values) {
    const value = raw.trim();
    const match = LISTENER_FORM.exec(value);
    if (match === null) throw fail(value, 'expects NAME://host:port (host may be empty, IPv6 in brackets)');
    const name = match[1]!.toUpperCase();
    const host = match[2] ?? match[3] ?? '';
    const port = Number(match[4]);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw fail(value, 'port must be between 0 and 65535');
    if (listeners.some((l) => l.name === name)) throw fail(value, `listener name ${name} is used twice; each listener needs its own name`);
    const protocol = protocols.get(name);
    if (protocol === undefined) {
      throw fail(value, `no security protocol for listener ${name}; add ${name}:PLAINTEXT to listener.security.protocol.map`);
    }
    listeners.push({ name, host, port, securityProtocol: protocol });
  }
  return listeners;
}

/** Whether a listener of this protocol speaks TLS. */
export function usesTls(protocol: SecurityProtocol): boolean {
  return protocol === 'SSL' || protocol === 'SASL_SSL';
}

/** Prints a listener back in Kafka's form. */
export function formatListener(listener: Pick<Listener, 'name' | 'host' | 'port'>): string {
  const host = listener.host.includes(':') ? `[${listener.host}]` : listener.host;
  return `${listener.name}://${host}:${listener.port}`;
}
