/**
 * Kafka's ConnectionQuotas: how many connections the broker holds, in all (max.connections) and per client
 * address (max.connections.per.ip, with max.connections.per.ip.overrides). Each is a dynamic broker config;
 * a change applies to connections accepted from then on (none already open is closed). Kafka's per-listener
 * listener.name.<l>.max.connections is not read: gregor's config has no listener-prefixed keys yet.
 *
 * The two kinds of limit act differently, as in Kafka's Acceptor:
 * - at the broker limit, Kafka's acceptor stops accepting until a connection closes: the new
 *   ones wait, connected, in the OS backlog, and are served once a slot frees. Node accepts everything, so
 *   such sockets wait here, unread, in arrival order, at most socket.listen.backlog.size per listener (what
 *   the OS backlog would hold); one beyond that is closed.
 * - at an address's limit the new connection is accepted and closed at once, logged at INFO.
 * Kafka's inter-broker listener (inter.broker.listener.name, else the one named after
 * security.inter.broker.protocol) is exempt from max.connections when there is more than one listener.
 */
import { isIP, type Socket } from 'node:net';
import { lookup } from 'node:dns/promises';
import { parseMaxConnectionsPerIpOverrides, type BrokerConfig } from '../config/index.js';
import type { Log } from '../log.js';

export interface ConnectionQuotaSettings {
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  /** Normalized address → its limit. */
  readonly perIpOverrides: ReadonlyMap<string, number>;
  /** The inter-broker listener's name. */
  readonly protectedListener: string;
}

export class ConnectionQuotas {
  private total = 0;
  private readonly perIp = new Map<string, number>();
  /** Sockets waiting for a slot, per listener, oldest first. */
  private readonly waiting = new Map<string, Socket[]>();

  constructor(
    private settings: ConnectionQuotaSettings,
    private readonly listeners: readonly string[],
    private readonly backlog: number,
    private readonly admit: (socket: Socket, listenerName: string, release: () => void) => void,
    private readonly log: Log,
  ) {}

  /** Connections counted now, in all. */
  get connections(): number {
    return this.total;
  }

  /** Sockets accepted by the OS and waiting for a slot. */
  get waitingConnections(): number {
    let n = 0;
    for (const queue of this.waiting.values()) n += queue.length;
    return n;
  }

  /** A socket the listener accepted: admitted, refused, or kept waiting for a slot. */
  offer(socket: Socket, listenerName: string): void {
    socket.on('error', () => {});
    const queue = this.waiting.get(listenerName) ?? [];
    if (queue.length === 0 && this.slotAvailable(listenerName)) {
      this.admitOrRefuse(socket, listenerName);
      return;
    }
    if (queue.length >= this.backlog) {
      socket.destroy();
      return;
    }
    this.waiting.set(listenerName, queue);
    queue.push(socket);
    socket.once('close', () => {
      const at = queue.indexOf(socket);
      if (at >= 0) queue.splice(at, 1);
    });
  }

  /** Closes the sockets still waiting for a slot (the broker is closing). */
  closeWaiting(): void {
    for (const queue of this.waiting.values()) for (const socket of queue.splice(0)) socket.destroy();
  }

  reconfigure(settings: ConnectionQuotaSettings): void {
    const previous = this.settings;
    this.settings = settings;
    if (settings.maxConnectionsPerIp !== previous.maxConnectionsPerIp) {
      this.log.info(`Updating maxConnectionsPerIp: ${settings.maxConnectionsPerIp}`);
    }
    if (!sameEntries(settings.perIpOverrides, previous.perIpOverrides)) {
      this.log.info(`Updating maxConnectionsPerIpOverrides: ${[...settings.perIpOverrides].map(([k, v]) => `${k}=${v}`).join(',')}`);
    }
    if (settings.maxConnections !== previous.maxConnections) {
      this.log.info(`Updating broker-wide maxConnections: ${settings.maxConnections}`);
    }
    this.admitWaiting();
  }

  private slotAvailable(listenerName: string): boolean {
    return this.isProtected(listenerName) || this.total < this.settings.maxConnections;
  }

  private isProtected(listenerName: string): boolean {
    return listenerName === this.settings.protectedListener && this.listeners.length > 1;
  }

  private admitOrRefuse(socket: Socket, listenerName: string): void {
    const address = normalizeAddress(socket.remoteAddress ?? '');
    const count = this.perIp.get(address) ?? 0;
    const max = this.settings.perIpOverrides.get(address) ?? this.settings.maxConnectionsPerIp;
    if (count >= max) {
      this.log.info(`Rejected connection from ${address}, address already has the configured maximum of ${max} connections.`);
      socket.destroy();
      return;
    }
    this.perIp.set(address, count + 1);
    this.total += 1;
    let released = false;
    this.admit(socket, listenerName, () => {
      if (released) return;
      released = true;
      this.release(address);
    });
  }

  private release(address: string): void {
    const count = (this.perIp.get(address) ?? 1) - 1;
    if (count === 0) this.perIp.delete(address);
    else this.perIp.set(address, count);
    this.total -= 1;
    this.admitWaiting();
  }

  /** Admits waiting sockets, oldest first per listener, while there is a slot. */
  private admitWaiting(): void {
    for (const [listenerName, queue] of this.waiting) {
      while (queue.length > 0 && this.slotAvailable(listenerName)) this.admitOrRefuse(queue.shift()!, listenerName);
    }
  }
}

/** The limits in a broker config; the override hosts that are names are resolved as Kafka's InetAddress.getByName does. */
export async function connectionQuotaSettings(config: BrokerConfig, log: Log): Promise<ConnectionQuotaSettings> {
  const perIpOverrides = new Map<string, number>();
  for (const [host, count] of parseMaxConnectionsPerIpOverrides(config['max.connections.per.ip.overrides'])) {
    let address = host;
    if (isIP(host) === 0) {
      try {
        address = (await lookup(host)).address;
      } catch (err) {
        log.warn({ host, err: (err as Error).message }, 'max.connections.per.ip.overrides: cannot resolve the host; its override is not applied');
        continue;
      }
    }
    perIpOverrides.set(normalizeAddress(address), count);
  }
  return {
    maxConnections: config['max.connections'],
    maxConnectionsPerIp: config['max.connections.per.ip'],
    perIpOverrides,
    protectedListener: config['inter.broker.listener.name'] ?? config['security.inter.broker.protocol'],
  };
}

/** One spelling per address: an IPv4-mapped IPv6 address is its IPv4 address (as Java's InetAddress), IPv6 compressed. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (isIP(address) === 6) return new URL(`http://[${address}]`).hostname.slice(1, -1);
  return address;
}

function sameEntries(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}
