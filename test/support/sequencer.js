// The order jest starts suites in. With a recorded duration (jest's cache on a developer's machine) the longest go
// first, as jest's own sequencer does. Without one (a clean clone: CI) jest orders by file size, and a short file
// that drives a browser over every page kind (hostile-content, two minutes and more) started last and ran alone on
// one of the two workers. Here a browser suite counts as BROWSER_WEIGHT times its size, so those go first and the
// quick suites fill the end.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const BROWSER_WEIGHT = 10;
const BROWSER_DIR = `${path.sep}test${path.sep}browser${path.sep}`;

class HeavyFirst extends Sequencer {
  sort(tests) {
    const weights = new Map();
    const weight = (test) => {
      if (!weights.has(test.path)) {
        const size = test.context.hasteFS.getSize(test.path) ?? 0;
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
