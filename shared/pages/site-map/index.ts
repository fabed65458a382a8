import { page } from '../define';
import SiteMapPage from './SiteMapPage';
import route from './route';

export default page(route, SiteMapPage);
