import { page } from '../define';
import TopicListPage from './TopicListPage';
import route from './route';

export default page(route, TopicListPage);
