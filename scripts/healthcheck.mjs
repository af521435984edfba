// The Docker image's HEALTHCHECK. Given an http:// URL (the image's: the broker's /readyz), exits 0 only on a 200:
// every listener bound, the logs and the coordinators loaded. Given host:port (a broker run without its HTTP
// listener), asks that Kafka listener for its ApiVersions, as every Kafka client does first, and exits 0 only on
// an answer without error (an open port alone does not show that requests are served). Plain node and no
// dependency: the runtime image has nothing else.
//   node scripts/healthcheck.mjs [http://host:port/readyz | host:port]      default 127.0.0.1:9092
import { connect } from 'node:net';

const target = process.argv[2] ?? '127.0.0.1:9092';
const TIMEOUT_MS = 4_000;
const CORRELATION_ID = 0x4845414c;

// ApiVersions v0 (key 18) with request header v1: size, api key, version, correlation id, client id.
const clientId = Buffer.from('gregor-healthcheck');
const request = Buffer.alloc(4 + 2 + 2 + 4 + 2 + clientId.length);
request.writeInt32BE(request.length - 4, 0);
request.writeInt16BE(18, 4);
request.writeInt16BE(0, 6);
request.writeInt32BE(CORRELATION_ID, 8);
request.writeInt16BE(clientId.length, 12);
clientId.copy(request, 14);

function fail(why) {
  process.stderr.write(`unhealthy: ${why}\n`);
  process.exit(1);
}

if (target.startsWith('http://')) {
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await response.text()).trim();
    if (response.status !== 200) fail(`${target} answered ${response.status}: ${body}`);
    process.exit(0);
  } catch (error) {
    fail(`${target}: ${error.cause?.message ?? error.message}`);
  }
}

const [host, port] = target.split(/:(?=\d+$)/);
const socket = connect({ host, port: Number(port) }, () => socket.write(request));
socket.setTimeout(TIMEOUT_MS, () => fail(`no answer from ${host}:${port} within ${TIMEOUT_MS} ms`));
socket.on('error', (error) => fail(`${host}:${port}: ${error.message}`));
let received = Buffer.alloc(0);
socket.on('data', (chunk) => {
  received = Buffer.concat([received, chunk]);
  // Response header v0 (correlation id), then the error code.
  if (received.length < 10) return;
  if (received.readInt32BE(4) !== CORRELATION_ID) fail('the answer carries another correlation id');
  const errorCode = received.readInt16BE(8);
  if (errorCode !== 0) fail(`ApiVersions answered error code ${errorCode}`);
  socket.destroy();
  process.exit(0);
});
socket.on('end', () => fail(`${host}:${port} closed the connection without answering`));
