// `gregor cluster --brokers N`: a local cluster in one command. etcd (the `etcd` binary on PATH) on 127.0.0.1 with its
// data under <data-dir>/etcd, then N brokers, each this same command in its own process (so one can be killed alone)
// with node.id i, listening on consecutive ports from --port and keeping its data under <data-dir>/node-i. Their log
// lines come out prefixed with [node-i]; once all listen, the bootstrap list is printed. SIGINT/SIGTERM stop the
// brokers (each shuts down cleanly and leaves the cluster), then etcd.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface ClusterArguments {
  readonly brokers: number;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly etcdPort: number;
  readonly clusterName: string;
  readonly overrides: readonly string[];
  readonly logLevel: string;
}

/** The one line a user without etcd reads. */
export const ETCD_MISSING = 'the etcd binary is not on PATH (gregor cluster runs it): install it with `apt-get install etcd-server` ' +
  '(Debian, Ubuntu; scripts/install-etcd.sh does it), `brew install etcd` (macOS), or from https://etcd.io/docs/latest/install/';

const EXIT_FAILURE = 1;
const READY_POLL_MS = 100;
/** How long etcd and each broker may take to listen before the cluster gives up (a slow first start included). */
const START_TIMEOUT_MS = 60_000;

function etcdOnPath(): boolean {
  const probe = spawnSync('etcd', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/** Resolves once something accepts TCP connections on host:port (etcd, whose log says nothing we wait for). */
async function listening(host: string, port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited before listening on ${host}:${port}`);
    const accepted = await new Promise<boolean>((done) => {
      const socket = connect({ host, port }, () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (accepted) return;
    if (Date.now() > deadline) throw new Error(`${what} is not listening on ${host}:${port} after ${START_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
}

interface Child {
  readonly process: ChildProcess;
  /** Resolves on the first line of its output that holds `text`. */
  readonly said: (text: string) => Promise<void>;
}

/** Each line of a child's output, prefixed with its name. Own process group: a terminal's Ctrl-C reaches only us. */
function startChild(name: string, command: string, args: readonly string[]): Child {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const awaited: { text: string; done: () => void }[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    process.stdout.write(`[${name}] ${line}\n`);
    for (const [i, wait] of awaited.entries()) {
      if (line.includes(wait.text)) {
        awaited.splice(i, 1);
        wait.done();
      }
    }
  });
  createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
  const said = (text: string) => new Promise<void>((done, fail) => {
    awaited.push({ text, done });
    void exited(child).then(() => fail(new Error(`${name} exited (${child.signalCode ?? `code ${child.exitCode}`}) before it was ready`)));
  });
  return { process: child, said };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

export async function runCluster(args: ClusterArguments): Promise<void> {
  if (!etcdOnPath()) {
    process.stderr.write(`gregor: ${ETCD_MISSING}\n`);
    process.exit(EXIT_FAILURE);
  }
  const dataDir = resolve(args.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const client = `http://127.0.0.1:${args.etcdPort}`;
  const peer = `http://127.0.0.1:${args.etcdPort + 1}`;
  const etcd = startChild('etcd', 'etcd', [
    '--name', 'gregor', '--data-dir', join(dataDir, 'etcd'), '--listen-client-urls', client, '--advertise-client-urls', client,
    '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `gregor=${peer}`, '--log-level', 'warn',
  ]);
  const brokers: Child[] = [];
  let stopping = false;
  const stop = async (code: number): Promise<never> => {
    stopping = true;
    // Brokers first (each leaves the cluster), then etcd.
    for (const broker of brokers) broker.process.kill('SIGTERM');
    await Promise.all(brokers.map((broker) => exited(broker.process)));
    etcd.process.kill('SIGTERM');
    await exited(etcd.process);
    process.exit(code);
  };
  process.on('SIGINT', () => void (stopping ? process.exit(EXIT_FAILURE) : stop(0)));
  process.on('SIGTERM', () => void (stopping ? process.exit(EXIT_FAILURE) : stop(0)));
  const ready: Promise<void>[] = [];
  // The same command (dist/gregor.mjs) runs each broker.
  const self = process.argv[1]!;
  try {
    await listening('127.0.0.1', args.etcdPort, etcd.process, 'etcd');
    for (let node = 1; node <= args.brokers; node++) {
      const broker = startChild(`node-${node}`, process.execPath, [
        self, '--port', String(args.port + node - 1), '--host', args.host, '--data-dir', join(dataDir, `node-${node}`),
        '--log-level', args.logLevel, '--log-format', 'pretty',
        '-o', `node.id=${node}`, '-o', `gregor.cluster.etcd.endpoints=${client}`, '-o', `gregor.cluster.name=${args.clusterName}`,
        ...args.overrides.flatMap((override) => ['-o', override]),
      ]);
      // The command's start-up line comes once the broker has joined the cluster and serves requests.
      ready.push(broker.said('gregor listening on'));
      brokers.push(broker);
    }
    await Promise.all(ready);
  } catch (error) {
    process.stderr.write(`gregor: ${error instanceof Error ? error.message : String(error)}\n`);
    return stop(EXIT_FAILURE);
  }
  const bootstrap = brokers.map((_, i) => `${args.host}:${args.port + i}`).join(',');
  process.stdout.write(`gregor cluster: ${args.brokers} broker(s), etcd at ${client}, data in ${dataDir}\nbootstrap servers: ${bootstrap}\n`);
  // A broker that dies is said, and the others go on (a user may kill one to watch the cluster).
  for (const [i, { process: broker }] of brokers.entries()) {
    void exited(broker).then(() => {
      if (!stopping) process.stderr.write(`gregor cluster: node-${i + 1} exited (${broker.signalCode ?? `code ${broker.exitCode}`})\n`);
    });
  }
  void exited(etcd.process).then(() => {
    if (stopping) return;
    process.stderr.write('gregor cluster: etcd exited; stopping the brokers\n');
    void stop(EXIT_FAILURE);
  });
}
