import { page } from '../define';
import TopicDetailPage from './TopicDetailPage';
import route from './route';

export default page(route, TopicDetailPage);
