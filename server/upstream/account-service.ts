/**
 * AccountApi for one signed-in request: the reader's lists from the CMS, asked with the session's token in the
 * `token` header (docs/product.md §6), on the server only. Nothing here goes through the data cache (every answer is one
 * reader's). Answers are checked before use: a CMS answer of the wrong shape is 'unavailable', never a crash or
 * half a list; '40101 please sign in' means the CMS ended the token, so the session is ended too.
 */
import { z } from 'zod';
import type { AccountApi, AccountList, CollectedVideo } from '../../shared/account-api';
import type { ArticleSummary, ColumnAuthor, Paged, Tag } from '../../shared/types/entities';
import { unixSeconds } from './wire';
import type { UpstreamClient } from './http-client';
import * as normalise from './normalise';

/** The CMS's answer to a token it no longer honours ('please sign in'): the session ends with it. */
export const CODE_NOT_SIGNED_IN = 40101;

const id = z.number().int().positive();
const text = z.string().max(2000).catch('');
const seconds = z.number().int().nonnegative().catch(0);

const articleItem = z.object({
  id,
  catid: id,
  title: z.string().max(2000),
  list_title: text,
  description: text,
  thumb: text,
  adddate: unixSeconds,
  source: text,
});

const videoItem = z.object({ id, catid: id, title: z.string().max(2000), cover: text, duration: seconds, adddate: unixSeconds });

const authorItem = z.object({
  id,
  name: z.string().max(200),
  avatar: text,
  description: text,
  subscribe_status: z.union([z.literal(0), z.literal(1)]).catch(1),
});

const tagItem = z.object({ id, name: z.string().max(200) });

const pageFields = z.object({ total: z.number().int().nonnegative(), page: z.number().int().positive(), page_size: z.number().int().positive() });
const MAX_ITEMS = 200;

export interface AccountSession extends AccountApi {
  /** True once the CMS said the token is no longer signed in. */
  readonly signedOut: boolean;
}

export class AccountService implements AccountSession {
  private ended = false;

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly token: string,
    /** Called once when the CMS no longer knows the token (ends the session). */
    private readonly onSignedOut: () => Promise<void>,
  ) {}

  get signedOut(): boolean {
    return this.ended;
  }

  collectedArticles(page: number, pageSize: number): Promise<AccountList<ArticleSummary>> {
    return this.list('/api/collection/list_and_article_detail', 'list', articleItem, page, pageSize, (raw) => normalise.articleSummary(raw));
  }

  collectedVideos(page: number, pageSize: number): Promise<AccountList<CollectedVideo>> {
    return this.list('/api/collection_video/list_and_article_detail', 'list', videoItem, page, pageSize, (raw) => raw);
  }

  subscribedAuthors(page: number, pageSize: number): Promise<AccountList<ColumnAuthor>> {
    return this.list('/api/special_column_author/subscribe_list', 'list', authorItem, page, pageSize, (raw) => normalise.columnAuthor(raw));
  }

  subscribedTags(page: number, pageSize: number): Promise<AccountList<Tag>> {
    return this.list('/api/tag/get_subscribe_list', 'lists', tagItem, page, pageSize, (raw) => raw);
  }

  private async list<Raw extends z.ZodTypeAny, T>(
    path: string,
    listKey: 'list' | 'lists',
    item: Raw,
    page: number,
    pageSize: number,
    toEntity: (raw: z.infer<Raw>) => T,
  ): Promise<AccountList<T>> {
    const result = await this.upstream
      .request({ method: 'GET', path: `${path}?page=${page}&page_size=${pageSize}`, headers: { token: this.token }, call: 'account-list' })
      .catch(() => null);
    if (!result || result.outcome === 'unavailable') return { kind: 'unavailable' };
    if (result.envelope.code === CODE_NOT_SIGNED_IN) {
      await this.endSession();
      return { kind: 'signed-out' };
    }
    if (result.outcome !== 'ok') return { kind: 'unavailable' };
    const data = result.envelope.data;
    const meta = pageFields.safeParse(data);
    const items = z
      .array(item)
      .max(MAX_ITEMS)
      .safeParse((data as Record<string, unknown> | null)?.[listKey]);
    if (!meta.success || !items.success) return { kind: 'unavailable' };
    const paged: Paged<T> = {
      list: (items.data as Array<z.infer<Raw>>).map(toEntity),
      total: meta.data.total,
      page: meta.data.page,
      pageSize: meta.data.page_size,
    };
    return { kind: 'ok', page: paged };
  }

  private async endSession(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.onSignedOut();
  }
}
