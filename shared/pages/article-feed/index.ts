import { page } from '../define';
import ArticleFeedPage from './ArticleFeedPage';
import route from './route';

export default page(route, ArticleFeedPage);
