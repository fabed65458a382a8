import { page } from '../define';
import GalleryPage from './GalleryPage';
import route from './route';

export default page(route, GalleryPage);
