/** Installed, or why not and the command to run. */
export type Provided = { ok: true } | { ok: false; why: string };
/** A process holding one of apt's lock files. */
export interface Holder {
  file: string;
  pid: number;
  command: string;
}
/** The bound on waiting for apt's locks, in seconds: APT_LOCK_WAIT_S, or 15 minutes. */
export declare function lockWaitSeconds(): number;
/** Who holds a lock on each of `files` now (fcntl and flock locks alike), read from /proc/locks; [] elsewhere. */
export declare function lockHolders(files: readonly string[]): Holder[];
/** "/var/lib/dpkg/lock-frontend held by process 812 (…)". */
export declare function describeHolders(holders: readonly Holder[]): string;
/** One apt-get update and one apt-get install of `packages`, waiting for apt's locks up to `lockWaitS`. */
export declare function aptInstall(packages: readonly string[], options?: { log?: (line: string) => void; lockWaitS?: number }): Promise<Provided>;
