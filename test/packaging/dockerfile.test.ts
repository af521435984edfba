// `docker build -t gregor .` without a docker daemon: every file the Dockerfile copies from the build context must
// be in it (present, and not excluded by .dockerignore), the base image must be a Node line package.json allows,
// and the HEALTHCHECK script must answer for a running broker and fail for none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker } from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions: continuation lines joined, comments and blank lines dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = pending + line;
    pending = '';
    const space = full.search(/\s/);
    out.push({ keyword: full.slice(0, space).toUpperCase(), args: full.slice(space + 1).trim() });
  }
  return out;
}

/** COPY/ADD sources taken from the build context (not `--from=` another stage). */
function contextSources(list: Instruction[]): string[] {
  const sources: string[] = [];
  for (const { keyword, args } of list) {
    if (keyword !== 'COPY' && keyword !== 'ADD') continue;
    const words = args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    if (flags.some((f) => f.startsWith('--from='))) continue;
    const paths = words.filter((w) => !w.startsWith('--'));
    sources.push(...paths.slice(0, -1));
  }
  return sources;
}

/** .dockerignore as Docker reads it: the last pattern that matches a path (or a directory above it) decides. */
function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const exception = l.startsWith('!');
      const pattern = (exception ? l.slice(1) : l).trim().replace(/^\.?\//, '').replace(/\/+$/, '');
      const source = pattern
        .split('**')
        .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
        .join('.*');
      return { exception, regex: new RegExp(`^${source}$`) };
    });
  return (path) => {
    const parts = path.split('/');
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (candidates.some((c) => rule.regex.test(c))) excluded = !rule.exception;
    return excluded;
  };
}

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

const dockerfile = instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));

test('the Dockerfile parser and .dockerignore rules read as Docker does', () => {
  assert.deepEqual(contextSources(instructions('FROM x\nCOPY a b \\\n  c/\nCOPY --from=build /d ./e\nADD ["f g", "/h"]\n')), ['a', 'b', 'f g']);
  const ignored = dockerignore('# c\nscripts/*\n!scripts/keep.mjs\n/dist/\n*.log\ndocs/**/*.md\n');
  assert.equal(ignored('scripts/x.mjs'), true);
  assert.equal(ignored('scripts/keep.mjs'), false);
  assert.equal(ignored('dist/src/index.js'), true, 'a directory pattern excludes what is under it');
  assert.equal(ignored('a.log'), true);
  assert.equal(ignored('src/a.log'), false, 'a pattern without a slash matches at the root only');
  assert.equal(ignored('docs/a/b/c.md'), true);
  assert.equal(ignored('src/index.ts'), false);
});

test('every COPY source of the Dockerfile is in the build context', () => {
  const ignored = dockerignore(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
  const sources = contextSources(dockerfile);
  assert.ok(sources.length > 0);
  for (const source of sources) {
    const path = join(ROOT, source);
    assert.ok(existsSync(path), `${source} exists`);
    for (const file of filesUnder(path)) {
      const inContext = relative(ROOT, file).split('\\').join('/');
      assert.equal(ignored(inContext), false, `${inContext} (COPY ${source}) is excluded by .dockerignore`);
    }
  }
});

test('the base image is a Node line that package.json engines allows; a HEALTHCHECK runs the copied script', () => {
  const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  const minimum = Number(/^>=(\d+)/.exec(engines)?.[1]);
  const images = dockerfile.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(/\s+/)[0]!);
  assert.ok(images.length > 0);
  for (const image of images) {
    const major = Number(/^node:(\d+)/.exec(image)?.[1]);
    assert.ok(major >= minimum, `${image} is at least Node ${minimum}`);
  }
  const healthcheck = dockerfile.filter((i) => i.keyword === 'HEALTHCHECK');
  assert.equal(healthcheck.length, 1);
  assert.match(healthcheck[0]!.args, /CMD \["node", "scripts\/healthcheck\.mjs", "http:\/\/127\.0\.0\.1:8080\/readyz"\]$/);
  // The image serves HTTP on the port the HEALTHCHECK asks.
  assert.ok(dockerfile.some((i) => i.keyword === 'ENV' && i.args.includes('GREGOR_GREGOR_HTTP_LISTENERS=http://0.0.0.0:8080')));
  assert.ok(contextSources(dockerfile).includes('scripts/healthcheck.mjs'));
});

test('the healthcheck script exits 0 for a broker that answers ApiVersions and 1 when none listens', async () => {
  const script = join(ROOT, 'scripts/healthcheck.mjs');
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0' }));
  let port: number;
  try {
    port = broker.addresses[0]!.port;
    // spawnSync would block the broker in this process: run it asynchronously.
    const child = spawn(process.execPath, [script, `127.0.0.1:${port}`], { stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  } finally {
    await broker.close();
  }
  const down = spawnSync(process.execPath, [script, `127.0.0.1:${port}`], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(down.status, 1);
  assert.match(down.stderr, /^unhealthy: 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
});

test('given the /readyz URL, the healthcheck script exits 0 for a ready broker and 1 (saying why) for none', async () => {
  const script = join(ROOT, 'scripts/healthcheck.mjs');
  const broker = await startBroker(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0', 'gregor.http.listeners': 'http://127.0.0.1:0' }));
  let url: string;
  try {
    url = `http://127.0.0.1:${broker.httpAddresses[0]!.port}/readyz`;
    const child = spawn(process.execPath, [script, url], { stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  } finally {
    await broker.close();
  }
  const down = spawnSync(process.execPath, [script, url], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(down.status, 1);
  assert.equal(down.stderr, `unhealthy: ${url}: connect ECONNREFUSED 127.0.0.1:${new URL(url).port}\n`);
});
