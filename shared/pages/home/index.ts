import { page } from '../define';
import HomePage from './HomePage';
import route from './route';

export default page(route, HomePage);
