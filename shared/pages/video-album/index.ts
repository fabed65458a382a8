import { page } from '../define';
import VideoAlbumPage from './VideoAlbumPage';
import route from './route';

export default page(route, VideoAlbumPage);
