/**
 * Runtime knobs for tests and benchmarks: injected latency and failures, article overrides, drafts (for the
 * editors' preview: docs/preview.md), the grey-mode flag and call counters. Kept apart from the dataset, which never changes after generation.
 */
import type { RawArticleDetail, RawGreyMode } from '../../server/upstream/wire';

export interface LatencyRule {
  /** Prefix of the request path, e.g. '/list/3281/'; '/' matches everything. */
  path: string;
  ms: number;
}

export type FailureMode = 'http500' | 'hang' | 'badjson' | 'code' | 'redirect';

export interface FailureRule {
  path: string;
  mode: FailureMode;
  /** For mode 'code': the non-zero business code to answer with. */
  code?: number;
  /** For mode 'redirect': the 3xx status (default 302) and the Location sent, as given (absolute, `//host/…` or a path). */
  status?: number;
  location?: string;
}

/** An answer sent instead of the real one (HTTP 200, JSON as given): wrong shapes, odd codes, huge bodies. */
export interface AnswerRule {
  /** Prefix of the request path, as for latency and failures. */
  path: string;
  /** The whole JSON body, envelope included, e.g. {code: 0, msg: 'ok', data: {lists: 'x'}}. */
  body: unknown;
}

export interface Stats {
  total: number;
  /** Keyed by `${method} ${path}?${sorted query}`; the '?' is always there, even with no query. */
  byPath: Record<string, number>;
}

export type ArticlePatch = Partial<RawArticleDetail>;

export interface Control {
  setLatency(rules: LatencyRule[]): void;
  setFailures(rules: FailureRule[]): void;
  setAnswers(rules: AnswerRule[]): void;
  /** Merges the patch into the article as served by list, detail and topic calls; false for an unknown id. */
  overrideArticle(id: number, patch: ArticlePatch): boolean;
  /**
   * Merges the patch into the article's draft: served only to calls asking for drafts (PREVIEW_HEADER) until
   * published; false for an unknown id (a draft-only article is known).
   */
  draftArticle(id: number, patch: ArticlePatch): boolean;
  /** A new article that exists only as a draft, shaped on an article of the category: its id, or null for a category with none. */
  createDraftArticle(catid: number, patch: ArticlePatch): number | null;
  /** What the CMS does on publish: the article's draft becomes what every call serves; false when it has none. */
  publishDraft(id: number): boolean;
  setGreyMode(mode: RawGreyMode): void;
  /** Serves the three misconfigured menu entries (docs/product.md §5 warnings) or the menu as it should be. */
  setMenuFaults(on: boolean): void;
  stats(): Stats;
  /** Back to the state right after creation: initial latency and failure rules, no overrides, zero counters. */
  reset(): void;
  setPublicUrl(url: string): void;
  publicUrl(): string;
}

export const DEFAULT_FAILURE_CODE = 50000;

/** The most specific (longest) matching prefix wins, so a broad rule can be refined for one path. */
function longestMatch<T extends { path: string }>(rules: readonly T[], path: string): T | undefined {
  let best: T | undefined;
  for (const rule of rules) {
    if (path.startsWith(rule.path) && (!best || rule.path.length > best.path.length)) best = rule;
  }
  return best;
}

export function statsKey(method: string, path: string, query: URLSearchParams): string {
  const entries = [...query.entries()].sort(([leftKey, leftValue], [rightKey, rightValue]) =>
    leftKey === rightKey ? leftValue.localeCompare(rightValue) : leftKey < rightKey ? -1 : 1,
  );
  return `${method} ${path}?${new URLSearchParams(entries).toString()}`;
}

/** '' keeps media URLs site-relative (`/media/…`): the portal's embedded mode serves them from its own origin. */
export function normalisePublicUrl(url: string): string {
  if (url === '') return '';
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`publicUrl must be http(s): ${url}`);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}

export interface ControlOptions {
  latency: readonly LatencyRule[];
  failures: readonly FailureRule[];
  greyMode: RawGreyMode;
  /** Whether the menu starts with its three misconfigured entries. */
  menuFaults: boolean;
  publicUrl: string;
  articleExists(id: number): boolean;
  /** An article of the category, for a draft-only article's shape (thumb, tags, source…). */
  articleOfCategory(catid: number): RawArticleDetail | undefined;
  /** The first id no article of the dataset has: draft-only articles count up from it. */
  firstFreeArticleId: number;
}

/** The control plane plus the read side the request pipeline uses. */
export class ControlState implements Control {
  private latency: LatencyRule[];
  private failures: FailureRule[];
  private answers: AnswerRule[] = [];
  private greyMode: RawGreyMode;
  private menuFaults: boolean;
  private readonly overrides = new Map<number, ArticlePatch>();
  private readonly drafts = new Map<number, ArticlePatch>();
  /** Articles created as drafts: whole records, served to everyone once published. */
  private readonly created = new Map<number, { article: RawArticleDetail; published: boolean }>();
  private counts = new Map<string, number>();
  private total = 0;
  private url: string;

  constructor(private readonly options: ControlOptions) {
    this.latency = [...options.latency];
    this.failures = [...options.failures];
    this.greyMode = options.greyMode;
    this.menuFaults = options.menuFaults;
    this.url = normalisePublicUrl(options.publicUrl);
  }

  setLatency(rules: LatencyRule[]): void {
    this.latency = rules.map((rule) => ({ path: rule.path, ms: Math.max(0, rule.ms) }));
  }

  setFailures(rules: FailureRule[]): void {
    this.failures = rules.map((rule) => ({ ...rule }));
  }

  setAnswers(rules: AnswerRule[]): void {
    this.answers = rules.map((rule) => ({ ...rule }));
  }

  overrideArticle(id: number, patch: ArticlePatch): boolean {
    if (!this.options.articleExists(id)) return false;
    // The id is the lookup key and cannot be patched away.
    const { id: _ignored, ...rest } = patch;
    this.overrides.set(id, { ...this.overrides.get(id), ...rest });
    return true;
  }

  draftArticle(id: number, patch: ArticlePatch): boolean {
    if (!this.options.articleExists(id) && !this.created.has(id)) return false;
    const { id: _ignored, ...rest } = patch;
    this.drafts.set(id, { ...this.drafts.get(id), ...rest });
    return true;
  }

  createDraftArticle(catid: number, patch: ArticlePatch): number | null {
    const shape = this.options.articleOfCategory(catid);
    if (!shape) return null;
    const id = this.options.firstFreeArticleId + this.created.size;
    const { id: _ignored, catid: _fixed, ...rest } = patch;
    this.created.set(id, { article: { ...shape, views: 0, ...rest, id, catid }, published: false });
    return id;
  }

  publishDraft(id: number): boolean {
    const created = this.created.get(id);
    const draft = this.drafts.get(id);
    if (created && !created.published) {
      this.created.set(id, { article: { ...created.article, ...draft, id }, published: true });
    } else if (draft) {
      this.overrides.set(id, { ...this.overrides.get(id), ...draft });
    } else {
      return false;
    }
    this.drafts.delete(id);
    return true;
  }

  setGreyMode(mode: RawGreyMode): void {
    this.greyMode = mode;
  }

  setMenuFaults(on: boolean): void {
    this.menuFaults = on;
  }

  stats(): Stats {
    return { total: this.total, byPath: Object.fromEntries(this.counts) };
  }

  reset(): void {
    this.latency = [...this.options.latency];
    this.failures = [...this.options.failures];
    this.answers = [];
    this.greyMode = this.options.greyMode;
    this.menuFaults = this.options.menuFaults;
    this.overrides.clear();
    this.drafts.clear();
    this.created.clear();
    this.counts = new Map();
    this.total = 0;
  }

  setPublicUrl(url: string): void {
    this.url = normalisePublicUrl(url);
  }

  publicUrl(): string {
    return this.url;
  }

  // ---- read side ----

  record(key: string): void {
    this.total += 1;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  latencyFor(path: string): number {
    return longestMatch(this.latency, path)?.ms ?? 0;
  }

  failureFor(path: string): FailureRule | undefined {
    return longestMatch(this.failures, path);
  }

  answerFor(path: string): AnswerRule | undefined {
    return longestMatch(this.answers, path);
  }

  overrideOf(id: number): ArticlePatch | undefined {
    return this.overrides.get(id);
  }

  draftOf(id: number): ArticlePatch | undefined {
    return this.drafts.get(id);
  }

  /** An article created as a draft: to every call once published, before that only to calls asking for drafts. */
  createdArticle(id: number, drafts: boolean): RawArticleDetail | undefined {
    const created = this.created.get(id);
    return created && (created.published || drafts) ? created.article : undefined;
  }

  currentGreyMode(): RawGreyMode {
    return this.greyMode;
  }

  menuFaultsOn(): boolean {
    return this.menuFaults;
  }
}
