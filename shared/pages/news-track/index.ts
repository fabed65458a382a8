import { page } from '../define';
import NewsTrackPage from './NewsTrackPage';
import route from './route';

export default page(route, NewsTrackPage);
