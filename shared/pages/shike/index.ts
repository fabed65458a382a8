import { page } from '../define';
import ShikePage from './ShikePage';
import route from './route';

export default page(route, ShikePage);
