/**
 * The portal's log is JSON lines (server/logger.ts) and nothing else: a warning or an error printed on the console
 * by the code under test (a library's own report of what a reader sent, say) fails the test it happened in, or
 * the file when it happened outside any test. A suite that expects one filters it out before it gets here
 * (stream-renderer.test.ts). The tests' own figures go to console.log, which is not watched.
 */
const printed: string[] = [];

for (const level of ['warn', 'error'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
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
