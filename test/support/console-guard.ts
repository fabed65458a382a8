/**
 * The portal's log is JSON lines (server/logger.ts) and nothing else: a warning or an error printed on the console
 * by the code under test (a library's own report of what a reader sent, say) fails the test it happened in, or
 * the file when it happened outside any test. A suite that expects one filters it out before it gets here
 * (stream-renderer.test.ts). The tests' own figures go to console.log, which is not watched.
 */
const printed: string[] = [];

/**
 * Internal assertions of react-dom's development build (which the suites run; production loads the production
 * build, which has no such check) that name themselves a bug in React: seen when a render aborted at its deadline
 * closes (faults.test.ts, an upstream that hangs). Not the portal's to log.
 */
const REACT_DEVELOPMENT_ASSERTIONS = ['There was still abortable task at the root when we closed. This is a bug in React.'];

for (const level of ['warn', 'error'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    if (REACT_DEVELOPMENT_ASSERTIONS.includes(String(args[0]))) return;
    printed.push(`console.${level}: ${String(args[0]).slice(0, 300)}`);
    original(...args);
  };
}

function throwIfPrinted(): void {
  if (printed.length === 0) return;
  const lines = printed.splice(0);
  throw new Error(`printed on the console, outside the JSON log:\n${lines.join('\n')}`);
}

afterEach(throwIfPrinted);
afterAll(throwIfPrinted);
