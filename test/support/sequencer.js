// The order jest starts suites in. With a recorded duration (jest's cache on a developer's machine) the longest go
// first, as jest's own sequencer does. Without one (a clean clone: CI) jest orders by file size, and a short file
// that drives a browser over every page kind (hostile-content, two minutes and more) started last and ran alone on
// one of the two workers. Here a browser suite counts as BROWSER_WEIGHT times its size, so those go first and the
// quick suites fill the end.
const { readFileSync, statSync } = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const BROWSER_WEIGHT = 10;
const BROWSER_DIR = `${path.sep}test${path.sep}browser${path.sep}`;
/**
 * A page sweep's suite file is two lines calling describeSweep (sweep-suite.ts): it weighs what it runs, the
 * sweep's modules, or a clean clone would start its minutes last.
 */
const SWEEP_CALL = 'describeSweep(';
const SWEEP_MODULES = ['sweep.ts', 'sweep-checks.ts', 'sweep-suite.ts'].map((name) => path.join(__dirname, name));

function sweeps(file) {
  return file.includes(BROWSER_DIR) && readFileSync(file, 'utf8').includes(SWEEP_CALL);
}

class HeavyFirst extends Sequencer {
  sort(tests) {
    const weights = new Map();
    const weight = (test) => {
      if (!weights.has(test.path)) {
        const size = sweeps(test.path) ? SWEEP_MODULES.reduce((sum, file) => sum + statSync(file).size, 0) : (test.context.hasteFS.getSize(test.path) ?? 0);
        weights.set(test.path, test.path.includes(BROWSER_DIR) ? size * BROWSER_WEIGHT : size);
      }
      return weights.get(test.path);
    };
    for (const test of tests) test.duration = this.time(test);
    return [...tests].sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      // Untimed suites (new ones) first: nothing says they are quick.
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return b.duration - a.duration;
      return weight(b) - weight(a);
    });
  }
}

module.exports = HeavyFirst;
