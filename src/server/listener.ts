/** One TCP server per configured listener, TLS on SSL listeners. Port 0 binds an ephemeral port. */
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { ListenerTls } from '../security/tls/listener-tls.js';

export interface ListenerSpec {
  readonly name: string;
  /** '' binds every interface, as Kafka does for an empty host. */
  readonly host: string;
  readonly port: number;
  /** Set on SSL (and SASL_SSL) listeners: sockets reach onSocket once their handshake succeeded. */
  readonly tls?: ListenerTls;
}

export interface BoundListener {
  readonly name: string;
  readonly host: string;
  /** The port actually bound (differs from the configured one when that was 0). */
  readonly port: number;
  close(): Promise<void>;
}

export interface ListenerEvents {
  /** A failed accept once listening (EMFILE: no descriptor left for the connection); without it the error would throw. */
  readonly onAcceptError?: (err: Error) => void;
  /** A TLS handshake that failed (untrusted or missing client certificate, a plaintext client...): only that socket closes. */
  readonly onTlsError?: (err: Error, remoteAddress: string) => void;
}

export function bindListener(
  spec: ListenerSpec,
  writeHighWaterMark: number,
  onSocket: (socket: Socket, listenerName: string) => void,
  events: ListenerEvents = {},
): Promise<BoundListener> {
  const server: Server = spec.tls === undefined
    ? createServer({ highWaterMark: writeHighWaterMark }, (socket) => onSocket(socket, spec.name))
    : tlsServer(spec, spec.tls, writeHighWaterMark, onSocket, events.onTlsError ?? (() => {}));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: spec.host === '' ? undefined : spec.host, port: spec.port }, () => {
      server.off('error', reject);
      server.on('error', events.onAcceptError ?? (() => {}));
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : spec.port;
      const host = spec.host !== '' ? spec.host : typeof address === 'object' && address !== null ? address.address : '';
      resolve({
        name: spec.name,
        host,
        port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

function tlsServer(
  spec: ListenerSpec,
  tls: ListenerTls,
  writeHighWaterMark: number,
  onSocket: (socket: Socket, listenerName: string) => void,
  onTlsError: (err: Error, remoteAddress: string) => void,
): Server {
  const server = createTlsServer({ ...tls.options, highWaterMark: writeHighWaterMark }, (socket) => {
    // ssl.client.auth=requested: no certificate is fine, an untrusted one is refused as Java's trust manager does.
    if (tls.clientAuth === 'requested' && !socket.authorized && socket.getPeerCertificate().raw !== undefined) {
      onTlsError(new Error(`client certificate refused: ${String(socket.authorizationError)}`), socket.remoteAddress ?? '?');
      socket.destroy();
      return;
    }
    onSocket(socket, spec.name);
  });
  // Node closes a socket whose certificate it does not trust before reporting it, its address gone by then: the
  // TCP socket under it (TLSSocket's _parent) is remembered with its address when accepted.
  const addresses = new WeakMap<Socket, string>();
  server.prependListener('connection', (raw: Socket) => addresses.set(raw, raw.remoteAddress ?? '?'));
  server.on('tlsClientError', (err, socket: TLSSocket & { _parent?: Socket }) => {
    onTlsError(err, socket.remoteAddress ?? (socket._parent === undefined ? undefined : addresses.get(socket._parent)) ?? '?');
    socket.destroy();
  });
  return server;
}
