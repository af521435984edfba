// `gregor cluster --brokers 2`: etcd and two brokers on consecutive ports, the bootstrap list printed once both serve,
// one cluster with both brokers and a controller; SIGINT stops the brokers, then etcd, and the command exits 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { once } from 'node:events';
import { freePorts, lineReader, spawnGregor } from '../cli/gregor-process.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { createDescribeClusterRequest, describeClusterApi } from '../../src/protocol/generated/describe-cluster.js';

const refused = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect({ host: '127.0.0.1', port }, () => { socket.destroy(); resolve(false); });
  socket.once('error', () => resolve(true));
});

test('gregor cluster --brokers 2: prints the bootstrap list once both brokers serve one cluster; SIGINT stops everything', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cluster-command-'));
  // Brokers on port and port + 1, etcd on port + 2 and its peer URL on port + 3: one block, held free together.
  const [port, , etcdPort] = await freePorts(4);
  const child = spawnGregor(['cluster', '--brokers', '2', '--port', String(port), '--host', '127.0.0.1', '--etcd-port', String(etcdPort),
    '--data-dir', join(dir, 'data'), '-o', 'broker.session.timeout.ms=2000']);
  const exited = once(child, 'exit');
  const output: string[] = [];
  const errors: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  try {
    const next = lineReader(child.stdout!);
    let line: string | null;
    while ((line = await next()) !== null && !line.startsWith('bootstrap servers: ')) output.push(line);
    assert.equal(line, `bootstrap servers: 127.0.0.1:${port},127.0.0.1:${port + 1}`, [...output, ...errors].join('\n'));
    assert.ok(output.some((l) => l.startsWith('[node-1] ')) && output.some((l) => l.startsWith('[node-2] ')));
    const client = await RawClient.connect(port);
    const cluster = await roundTrip(client, describeClusterApi, 1, { ...createDescribeClusterRequest(), endpointType: 1 });
    await client.close();
    assert.deepEqual(cluster.brokers.map((b) => [b.brokerId, b.port]), [[1, port], [2, port + 1]]);
    assert.ok([1, 2].includes(cluster.controllerId));
    assert.ok(existsSync(join(dir, 'data', 'node-1', 'meta.properties')) && existsSync(join(dir, 'data', 'node-2', 'meta.properties')));
    child.kill('SIGINT');
    const [code] = await exited;
    assert.equal(code, 0);
    for (const p of [port, port + 1, etcdPort]) assert.equal(await refused(p), true, `port ${p} still accepts`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
