/**
 * Turns dataset records into wire objects: applies test overrides and makes every media URL absolute. The dataset
 * keeps relative paths because the public URL (host and port) is only known after the server listens.
 */
import type {
  RawAdGroups,
  RawAdSlot,
  RawAdvertisement,
  RawArticleDetail,
  RawArticleListItem,
  RawCategory,
  RawColumnAuthor,
  RawTopic,
  RawTopicDetail,
} from '../../server/upstream/wire';
import { buildMenu, toRawCategory, withMenuFault, type CategoryRecord } from './categories';
import type { ControlState } from './control';
import { toListItem, type Dataset, type TopicRecord } from './dataset';

export class Presenter {
  constructor(
    private readonly dataset: Dataset,
    private readonly control: ControlState,
    /** Serves each article's draft where it has one, and draft-only articles (an editor's preview). */
    private readonly drafts = false,
  ) {}

  /** Only our own '/media/…' paths are rewritten; overrides may set anything else verbatim. */
  media(path: string): string {
    return path.startsWith('/media/') ? this.control.publicUrl() + path : path;
  }

  private content(html: string): string {
    const base = this.control.publicUrl();
    return html.replace(/(\s(?:src|poster)=")(\/media\/)/g, (_match, attribute: string, media: string) => `${attribute}${base}${media}`);
  }

  /** The article as currently served: dataset record (or one created as a draft) plus any override, and any draft. */
  effectiveArticle(id: number): RawArticleDetail | undefined {
    const article = this.dataset.articleById.get(id) ?? this.control.createdArticle(id, this.drafts);
    if (!article) return undefined;
    const patch = this.control.overrideOf(id);
    const draft = this.drafts ? this.control.draftOf(id) : undefined;
    return patch || draft ? { ...article, ...patch, ...draft, id } : article;
  }

  /** The article's category as the CMS files it (an override or draft cannot move it), if it is served at all. */
  categoryOf(id: number): number | undefined {
    return (this.dataset.articleById.get(id) ?? this.control.createdArticle(id, this.drafts))?.catid;
  }

  articleDetail(id: number): RawArticleDetail | undefined {
    const article = this.effectiveArticle(id);
    if (!article) return undefined;
    return { ...article, thumb: this.media(article.thumb), content: this.content(article.content), tags: article.tags.map((tag) => ({ ...tag })) };
  }

  listItem(id: number): RawArticleListItem | undefined {
    const article = this.effectiveArticle(id);
    if (!article) return undefined;
    const item = toListItem(article);
    return { ...item, thumb: this.media(item.thumb) };
  }

  listItems(ids: readonly number[]): RawArticleListItem[] {
    return ids.flatMap((id) => {
      const item = this.listItem(id);
      return item ? [item] : [];
    });
  }

  /** A category with its whole subtree, as the CMS's category_index returns it. */
  categoryTree(catid: number): RawCategory | undefined {
    const record = this.categoryRecord(catid);
    if (!record) return undefined;
    const children = (this.dataset.childrenOf.get(catid) ?? []).flatMap((childId) => {
      const child = this.categoryTree(childId);
      return child ? [child] : [];
    });
    return toRawCategory(record, children);
  }

  menu(): RawCategory[] {
    if (!this.control.menuFaultsOn()) return structuredClone([...this.dataset.menu]);
    return buildMenu({ get: (catid: number) => this.categoryRecord(catid) }, this.dataset.childrenOf);
  }

  /** The category as served now: with its editor's mistake while menu faults are on. */
  categoryRecord(catid: number): CategoryRecord | undefined {
    const record = this.dataset.categoryById.get(catid);
    return record && this.control.menuFaultsOn() ? withMenuFault(record) : record;
  }

  topic(topic: TopicRecord): RawTopic {
    const { id, title, description, cover_image, extend, adddate } = topic;
    return { id, title, description, cover_image: this.media(cover_image), extend, adddate };
  }

  topicDetail(topic: TopicRecord): RawTopicDetail {
    return { ...this.topic(topic), articles: this.listItems(topic.articleIds) };
  }

  ad(ad: RawAdvertisement): RawAdvertisement {
    return { ...ad, image: this.media(ad.image), video: this.media(ad.video) };
  }

  adGroups(groups: RawAdGroups): RawAdGroups {
    return {
      detailTop: groups.detailTop.map((ad) => this.ad(ad)),
      hotNewsTop: groups.hotNewsTop.map((ad) => this.ad(ad)),
      hotNewsBot: groups.hotNewsBot.map((ad) => this.ad(ad)),
      hotTopicBot: groups.hotTopicBot.map((ad) => this.ad(ad)),
      specialColBot: groups.specialColBot.map((ad) => this.ad(ad)),
    };
  }

  adSlots(slots: readonly RawAdSlot[]): RawAdSlot[] {
    return slots.map((slot) => ({ position: slot.position, list: slot.list.map((ad) => this.ad(ad)) }));
  }

  columnAuthor(author: RawColumnAuthor): RawColumnAuthor {
    return { ...author, avatar: this.media(author.avatar) };
  }
}
