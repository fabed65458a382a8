/** What a piece of the environment came to: usable, or why not and what to install. */
export type Provided = { ok: true } | { ok: false; why: string };
/** A Debian package providing `binary`: present, or installed with apt-get when this process may. */
export declare function ensureBinary(binary: string, pkg: string, why: string): Provided;
/** varnishd (Debian's varnish) and the xkey vmod (varnish-modules), which the VCL imports. */
export declare function ensureVarnish(): Provided;
export declare const CHROMIUM_PATH: string;
export declare function redisAnswers(host?: string, port?: number, timeoutMs?: number): Promise<boolean>;
export declare function prepareTestEnv(): Promise<{ env: Record<string, string | undefined>; stop(): void }>;
