import { page } from '../define';
import NewspaperPage from './NewspaperPage';
import route from './route';

export default page(route, NewspaperPage);
