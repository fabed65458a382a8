/** 首页 > 栏目 > 正文: where an article sits, the same trail its BreadcrumbList JSON-LD gives search engines. */
import { Link } from '../link';
import { href } from '../../routes';

export function Breadcrumb({ catid, catname }: { catid: number; catname: string }) {
  return (
    <nav className="breadcrumb" aria-label="当前位置">
      <ol>
        <li>
          <Link to={href.home()}>首页</Link>
        </li>
        <li>
          <Link to={href.categoryList(catid)}>{catname || '栏目'}</Link>
        </li>
        <li aria-current="page">正文</li>
      </ol>
    </nav>
  );
}
