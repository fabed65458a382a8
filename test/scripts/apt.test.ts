/**
 * The set-up's apt-get (scripts/apt.mjs, used by npm test, the benchmarks and the day) on a machine where another
 * process holds apt's locks, as unattended upgrades do on a new machine: it waits for them and then installs, and
 * when its bound runs out it names the lock and the process holding it. The holder is a real process taking the
 * same fcntl locks apt and dpkg take; the package installed is one every Debian has (`--no-upgrade`: nothing changes).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';
import { describeWithAptGet } from '../support/requirements';

const FRONTEND_LOCK = '/var/lib/dpkg/lock-frontend';
const LISTS_LOCK = '/var/lib/apt/lists/lock';
/** Always installed on Debian (the holder below is perl). */
const PRESENT_PACKAGE = 'perl-base';

/** Takes an fcntl write lock on each file, as apt does, prints "held", keeps them `seconds` (0: until stdin closes). */
const HOLDER = `
use Fcntl;
my $seconds = shift @ARGV;
my @held;
for my $file (@ARGV) {
  open(my $fh, '+<', $file) or die "$file: $!";
  fcntl($fh, F_SETLKW, pack('s s x4 q q i x4', F_WRLCK, SEEK_SET, 0, 0, 0)) or die "lock $file: $!";
  push @held, $fh;
}
$| = 1;
print "held\\n";
if ($seconds > 0) { sleep $seconds } else { my $line = <STDIN> }
`;

interface Installed {
  result: { ok: true } | { ok: false; why: string };
  /** What it said while it worked (the waits). */
  lines: string[];
}

/** scripts/apt.mjs's aptInstall in a process of its own (an ES module, as npm test loads it). */
function aptInstall(packages: readonly string[], lockWaitS: number): Promise<Installed> {
  const program = `
    const { aptInstall } = await import(process.argv[1]);
    const result = await aptInstall(JSON.parse(process.argv[2]), { log: (line) => console.log(line), lockWaitS: Number(process.argv[3]) });
    console.log(JSON.stringify(result));`;
  const child = spawn(process.execPath, [
    '--input-type=module',
    '-e',
    program,
    path.join(PROJECT_ROOT, 'scripts/apt.mjs'),
    JSON.stringify(packages),
    String(lockWaitS),
  ]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('close', (code) => {
      const lines = stdout.trim().split('\n');
      if (code !== 0) reject(new Error(`aptInstall exited ${code}: ${stderr}`));
      else resolve({ result: JSON.parse(lines.at(-1) ?? 'null') as Installed['result'], lines: lines.slice(0, -1) });
    });
  });
}

interface Holder {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<void>;
}

/** A process holding apt's `files` for `seconds` (0: until released), once it says it holds them. */
async function holdLocks(seconds: number, files: readonly string[]): Promise<Holder> {
  const child = spawn('perl', ['-e', HOLDER, String(seconds), ...files]);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes('held')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => reject(new Error(`lock holder: ${chunk.toString()}`)));
    child.once('exit', (code) => reject(new Error(`lock holder exited (${code}) before holding ${files.join(', ')}`)));
  });
  return { child, exited };
}

describeWithAptGet()('installing with apt-get while another process holds its locks', () => {
  it('waits for the holder to let go, then updates and installs', async () => {
    const holder = await holdLocks(20, [FRONTEND_LOCK, LISTS_LOCK]);
    const events: string[] = [];
    void holder.exited.then(() => events.push('holder exited'));
    const { result, lines } = await aptInstall([PRESENT_PACKAGE], 300);
    events.push('installed');
    expect(result).toEqual({ ok: true });
    expect(events).toEqual(['holder exited', 'installed']);
    // Said while it waited: which lock, held by which process.
    expect(lines.join('\n')).toMatch(new RegExp(`waiting for ${LISTS_LOCK} held by process ${holder.child.pid} \\(perl`));
  });

  it('past its bound, gives up naming the lock, the holding process and the command to run', async () => {
    const holder = await holdLocks(0, [FRONTEND_LOCK, LISTS_LOCK]);
    try {
      const { result } = await aptInstall([PRESENT_PACKAGE], 1);
      expect(result.ok).toBe(false);
      const why = result.ok ? '' : result.why;
      expect(why).toContain(`${LISTS_LOCK} held by process ${holder.child.pid} (perl`);
      expect(why).toContain('APT_LOCK_WAIT_S');
      expect(why).toContain(`apt-get install -y ${PRESENT_PACKAGE}`);
    } finally {
      holder.child.stdin.end();
      await holder.exited;
    }
  });
});
