// A real etcd for the cluster tests: the `etcd` binary (scripts/install-etcd.sh) on loopback, its own data dir in a temp
// dir and two free ports (client, peer), started in a second and stopped (its data removed) by stop().
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePorts } from '../cli/gregor-process.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdServer {
  /** The client URL, as gregor.cluster.etcd.endpoints takes it. */
  readonly endpoint: string;
  readonly output: string[];
  /** SIGTERM, waits for the exit, removes the data dir. */
  stop(): Promise<void>;
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/health`);
    return response.ok && ((await response.json()) as { health?: string }).health === 'true';
  } catch {
    return false;
  }
}

export async function startEtcd(): Promise<EtcdServer> {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-etcd-'));
  const [clientPort, peerPort] = await freePorts(2);
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const child: ChildProcess = spawn('etcd', [
    '--name', 'test', '--data-dir', join(dir, 'data'),
    '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `test=${peer}`,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => { gone = true; });
  const stop = async (): Promise<void> => {
    if (!gone) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; !(await healthy(endpoint)); attempt++) {
    if (gone || attempt > 200) {
      await stop();
      throw new Error(`etcd did not start on ${endpoint}:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { endpoint, output, stop };
}
