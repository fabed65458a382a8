import { page } from '../define';
import VideoPage from './VideoPage';
import route from './route';

export default page(route, VideoPage);
