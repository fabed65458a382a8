/** The few parts of m3u8-parser (no bundled types) the HLS tests use. */
declare module 'm3u8-parser' {
  export interface ParsedSegment {
    uri: string;
    duration: number;
    map?: { uri: string };
  }
  export interface ParsedManifest {
    version?: number;
    targetDuration?: number;
    mediaSequence?: number;
    playlistType?: string;
    endList?: boolean;
    segments: ParsedSegment[];
  }
  export class Parser {
    manifest: ParsedManifest;
    push(chunk: string): void;
    end(): void;
  }
}
