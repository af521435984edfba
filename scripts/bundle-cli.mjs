// Bundles the `gregor` command (dist/src/cli/main.js and everything it loads) into one file,
// dist/gregor.mjs. One file instead of ~300 ES modules starts about a third faster and keeps
// ~6 MB less resident (measured in BENCHMARKS.md, "Start-up and idle memory"). Packages with
// native add-ons stay outside, loaded from node_modules when first used; pino-pretty too, as it
// is loaded only for a terminal.
import { build } from 'esbuild';

const EXTERNAL = ['lz4-napi', 'snappy', '@toondepauw/node-zstd', '@node-rs/*', 'pino-pretty'];

await build({
  entryPoints: ['dist/src/cli/main.js'],
  outfile: 'dist/gregor.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: EXTERNAL,
  // The CommonJS dependencies (pino, yargs' helpers) call require(); an ES module has none.
  banner: { js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);" },
  logLevel: 'warning',
});
