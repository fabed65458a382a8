import { page } from '../define';
import SearchPage from './SearchPage';
import route from './route';

export default page(route, SearchPage);
