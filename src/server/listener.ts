/** One TCP server per configured listener. Port 0 binds an ephemeral port. */
import { createServer, type Server, type Socket } from 'node:net';

export interface ListenerSpec {
  readonly name: string;
  /** '' binds every interface, as Kafka does for an empty host. */
  readonly host: string;
  readonly port: number;
}

export interface BoundListener {
  readonly name: string;
  readonly host: string;
  /** The port actually bound (differs from the configured one when that was 0). */
  readonly port: number;
  close(): Promise<void>;
}

export function bindListener(
  spec: ListenerSpec,
  writeHighWaterMark: number,
  onSocket: (socket: Socket, listenerName: string) => void,
  /** A failed accept once listening (EMFILE: no descriptor left for the connection); without it the error would throw. */
  onAcceptError: (err: Error) => void = () => {},
): Promise<BoundListener> {
  const server: Server = createServer({ highWaterMark: writeHighWaterMark }, (socket) => onSocket(socket, spec.name));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: spec.host === '' ? undefined : spec.host, port: spec.port }, () => {
      server.off('error', reject);
      server.on('error', onAcceptError);
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
