/** What the resizer counts (server/platform/metrics.ts): its answers, and why an original failed. */
import type { PictureFailure } from './resize';
import type { SourceFailure } from './source-fetch';

export type ImageOutcome = 'hit' | 'resized' | 'fallback' | 'refused' | 'busy';
export type ImageFailure = SourceFailure | PictureFailure;
