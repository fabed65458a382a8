/**
 * What readers must never see, checked on every view's body: a corrected headline more than a second after the
 * hook that corrected it answered (a stale view), and a taken-down article after its takedown's hook answered (a
 * leak). Each headline the newsroom writes carries a marker unique in the run (`Z{run}x{n}Z`), so a body is read
 * once with one regular expression, whatever page shows the headline (article, home teaser, list, related reading).
 */
import type { PageClass, ReaderKind } from './traffic';

/** How long after the hook answered a reader may still get the headline it corrected. */
export const STALE_AFTER_MS = 1000;

export interface ViewFacts {
  cls: PageClass;
  reader: ReaderKind;
  host: string;
  path: string;
  articleId?: number;
  /** performance.now() when the request was sent. */
  startedAt: number;
  status: number;
  edgeCache: string;
  originCache: string;
  age: string;
}

export interface StaleView extends Omit<ViewFacts, 'articleId'> {
  article: number;
  marker: string;
  /** How long after the correcting hook answered the view started, ms. */
  lateMs: number;
}

export interface Leak extends Omit<ViewFacts, 'articleId'> {
  article: number;
  /** How long after the takedown's hook answered the view started, ms. */
  lateMs: number;
}

interface Headline {
  article: number;
  /** When the hook of the correction after it answered; null while it is the article's current headline. */
  supersededAt: number | null;
}

export class Ledger {
  private readonly headlines = new Map<number, Headline>();
  private readonly current = new Map<number, number>();
  private readonly takenDown = new Map<number, number>();
  private readonly lastCorrected = new Map<number, number>();
  private readonly pattern: RegExp;
  private sequence = 0;
  readonly stale: StaleView[] = [];
  readonly leaks: Leak[] = [];

  constructor(private readonly run: string) {
    this.pattern = new RegExp(`Z${run}x(\\d+)Z`, 'g');
  }

  /** A new headline's marker for `article` (not in force until `corrected`). */
  nextMarker(): { marker: string; sequence: number } {
    this.sequence += 1;
    return { marker: `Z${this.run}x${this.sequence}Z`, sequence: this.sequence };
  }

  /** The hook for `article`'s headline `sequence` answered at `at`: the headline before it is now a corrected one. */
  corrected(article: number, sequence: number, at: number): void {
    this.lastCorrected.set(article, at);
    const previous = this.current.get(article);
    if (previous !== undefined) this.headlines.get(previous)!.supersededAt = at;
    this.headlines.set(sequence, { article, supersededAt: null });
    this.current.set(article, sequence);
  }

  /** The takedown's hook for `article` answered at `at`. */
  tookDown(article: number, at: number): void {
    this.takenDown.set(article, at);
  }

  isTakenDown(article: number): boolean {
    return this.takenDown.has(article);
  }

  /** When the last hard correction of `article` was answered (performance.now()); undefined: never. */
  correctedAt(article: number): number | undefined {
    return this.lastCorrected.get(article);
  }

  /** Checks one view; returns whether it was stale or a leak (both are also listed). */
  check(view: ViewFacts, body: string): { stale: boolean; leak: boolean } {
    const { articleId, ...facts } = view;
    let stale = false;
    for (const match of body.matchAll(this.pattern)) {
      const headline = this.headlines.get(Number(match[1]));
      if (!headline || headline.supersededAt === null) continue;
      const lateMs = view.startedAt - headline.supersededAt;
      if (lateMs <= STALE_AFTER_MS) continue;
      this.stale.push({ ...facts, article: headline.article, marker: match[0], lateMs });
      stale = true;
      break;
    }
    const downAt = articleId === undefined ? undefined : this.takenDown.get(articleId);
    const leak = downAt !== undefined && view.startedAt > downAt && view.status === 200;
    if (leak) this.leaks.push({ ...facts, article: articleId!, lateMs: view.startedAt - downAt });
    return { stale, leak };
  }
}
