/**
 * Runs right after `npm ci` (postinstall) and before `npm run build` (prebuild): says at once, before
 * the long steps, whether npm scripts will run on a supported Node.js. They run on the first `node` of
 * npm's PATH, which is node_modules/.bin/node when npm installed the pinned official build for this
 * platform (optionalDependencies, docs/decisions.md "A supported Node.js from the npm registry").
 */
import { runtimeVerdict, SUPPORTED_NODE_MAJORS } from '../lib/config/runtime';

const verdict = runtimeVerdict(process.version);
if (verdict.verdict === 'untested') console.warn(`identity-service: ${verdict.message}`);
if (verdict.verdict === 'refused') {
  const lines = SUPPORTED_NODE_MAJORS.map((major) => `${major}.x`).join(' or ');
  console.error(
    [
      `identity-service: ${verdict.message}`,
      `npm installs an official Node.js ${SUPPORTED_NODE_MAJORS[0]} build from the npm registry for linux-x64, linux-arm64, darwin-x64 and win32-x64,`,
      `but none is published for ${process.platform}-${process.arch} (or optional dependencies were left out).`,
      `Install Node.js ${lines} LTS on this machine (nodejs.org, your package manager or a version manager), then run the command again.`,
    ].join('\n'),
  );
  process.exit(1);
}
