/** What a piece of the environment came to: usable, or why not and what to install. */
export type Provided = { ok: true; command?: string } | { ok: false; why: string };
/** A piece of the environment: whether it is usable now, and the Debian packages that provide it. */
export interface Piece {
  check(): Provided;
  packages(): string[];
}
/** A Debian package providing `binary`, which `why` needs. */
export declare function binaryPiece(binary: string, pkg: string, why: string): Piece;
/** varnishd (Debian's varnish) and the xkey vmod (varnish-modules) the shipped VCL imports, which `why` needs. */
export declare function varnishPiece(why: string): Piece;
/** Checks every piece, installs what the missing ones need at once (one apt-get update, one install), checks again. */
export declare function provide<Name extends string>(pieces: Record<Name, Piece>): Promise<Record<Name, Provided>>;
export declare const CHROMIUM_PATH: string;
export declare function redisAnswers(host?: string, port?: number, timeoutMs?: number): Promise<boolean>;
export declare function prepareTestEnv(): Promise<{ env: Record<string, string | undefined>; stop(): void }>;
