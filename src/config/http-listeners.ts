// gregor.http.listeners: the HTTP listener's addresses in Kafka's listener form, http://host:port[,...].
// An empty host binds all interfaces, IPv6 hosts go in brackets, port 0 takes an ephemeral port.
import { ConfigError } from './config-types.js';

export interface HttpListener {
  /** Host to bind; '' = all interfaces. IPv6 without brackets. */
  readonly host: string;
  /** 0..65535; 0 = an ephemeral port chosen at bind time. */
  readonly port: number;
}

const KEY = 'gregor.http.listeners';
const HTTP_LISTENER_FORM = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(?:\[([0-9a-zA-Z\-%._:]*)\]|([0-9a-zA-Z\-%._]*)):(\d+)$/;

/** Parses the key's values; throws ConfigError (one line, naming the key) on a malformed entry, a scheme other than http or a port out of range. */
export function parseHttpListeners(values: readonly string[]): HttpListener[] {
  const fail = (value: string, why: string) => new ConfigError(KEY, `Invalid value ${JSON.stringify(value)} for configuration ${KEY}: ${why}`);
  const listeners: HttpListener[] = [];
  for (const raw of values) {
    const value = raw.trim();
    const match = HTTP_LISTENER_FORM.exec(value);
    if (match === null) throw fail(value, 'expects http://host:port (host may be empty, IPv6 in brackets)');
    if (match[1]!.toLowerCase() !== 'http') throw fail(value, `the scheme must be http (${match[1]} is not served)`);
    const port = Number(match[4]);
    if (port > 65535) throw fail(value, 'port must be between 0 and 65535');
    const host = match[2] ?? match[3] ?? '';
    if (listeners.some((l) => l.host === host && l.port === port && port !== 0)) throw fail(value, 'the same address is listed twice');
    listeners.push({ host, port });
  }
  return listeners;
}

/** Prints a listener back in the key's form. */
export function formatHttpListener(listener: HttpListener): string {
  return `http://${listener.host.includes(':') ? `[${listener.host}]` : listener.host}:${listener.port}`;
}

/** An address as a URL a browser opens: http://host:port/ (an IPv6 host in brackets, all interfaces as localhost). */
export function httpUrl(address: { readonly host: string; readonly port: number }): string {
  const host = address.host === '' || address.host === '0.0.0.0' || address.host === '::' ? 'localhost' : address.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`;
}
