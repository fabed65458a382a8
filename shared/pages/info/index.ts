import { page } from '../define';
import InfoPage from './InfoPage';
import route from './route';

export default page(route, InfoPage);
