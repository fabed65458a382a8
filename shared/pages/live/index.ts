import { page } from '../define';
import LivePage from './LivePage';
import route from './route';

export default page(route, LivePage);
