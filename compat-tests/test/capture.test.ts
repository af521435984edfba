// The recording proxy and its frame splitter, against a small frame-answering server on loopback.
// Run: node --test dist/compat-tests/test/capture.test.js
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { rewriteAdvertisedPort, startCaptureProxy } from '../capture.js';
import { FrameSplitter } from '../wire/frame-splitter.js';

function frame(body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

function request(key: number, version: number, correlationId: number, tail: string): Buffer {
  const header = Buffer.alloc(8);
  header.writeInt16BE(key, 0);
  header.writeInt16BE(version, 2);
  header.writeInt32BE(correlationId, 4);
  return frame(Buffer.concat([header, Buffer.from(tail)]));
}

test('FrameSplitter joins frames split across chunks and splits frames sharing a chunk', () => {
  const splitter = new FrameSplitter();
  const bytes = Buffer.concat([frame(Buffer.from('one')), frame(Buffer.from('second'))]);
  assert.deepEqual(splitter.push(bytes.subarray(0, 5)), []);
  const frames = splitter.push(bytes.subarray(5));
  assert.deepEqual(frames.map((f) => f.toString()), ['one', 'second']);
});

test('FrameSplitter rejects a negative size', () => {
  assert.throws(() => new FrameSplitter().push(Buffer.from([0xff, 0xff, 0xff, 0xff])), /not a Kafka frame/);
});

test('the proxy forwards bytes unchanged and records each request with its response by correlation id', async () => {
  // Answers requests in reverse order of arrival, so matching by order alone would pair them wrongly.
  const upstream: Server = createServer((socket) => {
    const splitter = new FrameSplitter();
    const held: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      held.push(...splitter.push(chunk));
      if (held.length < 2) return;
      for (const received of held.reverse()) {
        socket.write(frame(Buffer.concat([received.subarray(4, 8), Buffer.from(`answer-${received.readInt32BE(4)}`)])));
      }
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamPort = (upstream.address() as { port: number }).port;
  const outDir = mkdtempSync(join(tmpdir(), 'capture-test-'));
  const proxy = await startCaptureProxy({ listenPort: 0, upstreamHost: '127.0.0.1', upstreamPort, outDir });
  try {
    const client = connect(proxy.port, '127.0.0.1');
    const splitter = new FrameSplitter();
    const answers: string[] = [];
    const done = new Promise<void>((resolve) =>
      client.on('data', (chunk: Buffer) => {
        answers.push(...splitter.push(chunk).map((f) => f.subarray(4).toString()));
        if (answers.length === 2) resolve();
      }),
    );
    client.write(Buffer.concat([request(18, 3, 7, 'first'), request(3, 12, 8, 'second')]));
    await done;
    client.destroy();
    assert.deepEqual(answers, ['answer-8', 'answer-7']);
    assert.equal(proxy.recorded, 2);
    assert.deepEqual(readdirSync(outDir).sort(), [
      '01-ApiVersions-v3.request.hex',
      '01-ApiVersions-v3.response.hex',
      '02-Metadata-v12.request.hex',
      '02-Metadata-v12.response.hex',
    ]);
    const hex = (name: string): string => readFileSync(join(outDir, name), 'utf8');
    assert.equal(hex('01-ApiVersions-v3.request.hex'), request(18, 3, 7, 'first').subarray(4).toString('hex') + '\n');
    assert.equal(Buffer.from(hex('01-ApiVersions-v3.response.hex').trim(), 'hex').subarray(4).toString(), 'answer-7');
    assert.equal(Buffer.from(hex('02-Metadata-v12.response.hex').trim(), 'hex').subarray(4).toString(), 'answer-8');
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }
});

test('rewriteAdvertisedPort renames every host+port occurrence, keeping the length, and leaves other frames alone', () => {
  const port = (value: number): Buffer => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(value);
    return bytes;
  };
  // A Metadata v12 broker entry (compact string: length + 1, then the host) twice, then another broker's port.
  const host = Buffer.from('127.0.0.1');
  const entry = (p: number): Buffer => Buffer.concat([port(1), Buffer.from([host.length + 1]), host, port(p)]);
  const frame = Buffer.concat([entry(9092), entry(9092), entry(9093)]);
  const renamed = rewriteAdvertisedPort(frame, '127.0.0.1', 9092, 40000);
  assert.deepEqual(renamed, Buffer.concat([entry(40000), entry(40000), entry(9093)]));
  assert.equal(frame.readInt32BE(14), 9092, 'the recorded frame keeps the broker\'s bytes');
  const other = Buffer.concat([entry(9093)]);
  assert.equal(rewriteAdvertisedPort(other, '127.0.0.1', 9092, 40000), other);
});

test('with advertised, Metadata answers name the proxy, others pass unchanged, and every request is logged', async () => {
  const named = (correlation: Buffer, port: number): Buffer => {
    const body = Buffer.alloc(4 + 9 + 4);
    correlation.copy(body, 0);
    body.write('127.0.0.1', 4, 'latin1');
    body.writeInt32BE(port, 13);
    return body;
  };
  let upstreamPort = 0;
  // Answers every request with its correlation id, then "127.0.0.1" and its own port.
  const upstream: Server = createServer((socket) => {
    const splitter = new FrameSplitter();
    socket.on('data', (chunk: Buffer) => {
      for (const received of splitter.push(chunk)) socket.write(frame(named(received.subarray(4, 8), upstreamPort)));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as { port: number }).port;
  const proxy = await startCaptureProxy({ listenPort: 0, upstreamHost: '127.0.0.1', upstreamPort, advertised: { host: '127.0.0.1', port: upstreamPort } });
  try {
    const client = connect(proxy.port, '127.0.0.1');
    const splitter = new FrameSplitter();
    const answers: Buffer[] = [];
    const done = new Promise<void>((resolve) =>
      client.on('data', (chunk: Buffer) => {
        answers.push(...splitter.push(chunk));
        if (answers.length === 2) resolve();
      }),
    );
    client.write(Buffer.concat([request(3, 13, 1, 'metadata'), request(18, 4, 2, 'api-versions')]));
    await done;
    client.destroy();
    const correlation = (id: number): Buffer => {
      const bytes = Buffer.alloc(4);
      bytes.writeInt32BE(id);
      return bytes;
    };
    assert.deepEqual(answers, [named(correlation(1), proxy.port), named(correlation(2), upstreamPort)]);
    assert.deepEqual(proxy.requests, [{ apiKey: 3, version: 13 }, { apiKey: 18, version: 4 }]);
    assert.equal(proxy.renamed, 1);
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});
