import { page } from '../define';
import PersonalCenterPage from './PersonalCenterPage';
import route from './route';

export default page(route, PersonalCenterPage);
