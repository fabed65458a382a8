import { page } from '../define';
import SpecialColumnPage from './SpecialColumnPage';
import route from './route';

export default page(route, SpecialColumnPage);
