import { page } from '../define';
import CategoryListPage from './CategoryListPage';
import route from './route';

export default page(route, CategoryListPage);
