import { page } from '../define';
import DetailPage from './DetailPage';
import route from './route';

export default page(route, DetailPage);
