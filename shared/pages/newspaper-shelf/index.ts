import { page } from '../define';
import NewspaperShelfPage from './NewspaperShelfPage';
import route from './route';

export default page(route, NewspaperShelfPage);
