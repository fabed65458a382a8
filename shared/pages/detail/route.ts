/** Article detail (/detail/{catid}/{id}): the article, related reading and the detail layout's ad groups. */
import type { AdGroups, Article, ArticleLink } from '../../types/entities';
import { definePage, route } from '../define';

export interface DetailData {
  article: Article;
  /** 相关阅读: the newest other articles of the same category, as the links the list shows. */
  related: ArticleLink[];
  ads: AdGroups;
}

export default definePage<DetailData>()('detail', [
  route('detail', 'detail-catid-id', '/detail/:catid?/:id?', { catid: 'id', id: 'id' }, { layout: 'detail' }),
]);
