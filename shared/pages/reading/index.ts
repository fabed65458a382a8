import { page } from '../define';
import ReadingPage from './ReadingPage';
import route from './route';

export default page(route, ReadingPage);
