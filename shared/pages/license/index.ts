import { page } from '../define';
import LicensePage from './LicensePage';
import route from './route';

export default page(route, LicensePage);
