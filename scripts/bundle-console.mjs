// Part of `npm run build`: the console page (src/http/console/page/) into dist/console/, what the HTTP listener serves
// at /console/ (src/http/console/assets.ts). esbuild bundles and minifies the script and the stylesheet (no framework,
// nothing fetched from outside at run time); index.html is copied as it is. esbuild does not type-check: the page's
// own tsconfig (DOM types) is checked by `tsc -p src/http/console/page`, run by the build before this.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';

const SRC = 'src/http/console/page';
const OUT = 'dist/console';
mkdirSync(OUT, { recursive: true });
const common = { bundle: true, minify: true, logLevel: 'warning', legalComments: 'none' };
await build({ ...common, entryPoints: [`${SRC}/app.ts`], outfile: `${OUT}/app.js`, format: 'esm', target: 'es2022', platform: 'browser' });
await build({ ...common, entryPoints: [`${SRC}/app.css`], outfile: `${OUT}/app.css` });
copyFileSync(`${SRC}/index.html`, `${OUT}/index.html`);
if (process.env.CONSOLE_BUNDLE_SIZES) for (const f of ['index.html', 'app.js', 'app.css']) console.log(f, statSync(`${OUT}/${f}`).size);
