/** The portal's React tree, the same on the server and in the browser: the route's layout around its page. */
import type { AppState, LoadedPageState, PageState, PublicUser } from '../app-state';
import type { PageId } from '../page-data';
import { routeById } from '../routes';
import { PortalContext } from './context';
import type { ResourceStore } from './data/resource-store';
import { Layout } from './layouts/Layout';
import { loadedPage } from '../pages/registry';
import { ErrorPage, NotFoundPage } from './StatusPage';
import { PageErrorBoundary } from './PageErrorBoundary';
import { NavigationAnnouncer } from './blocks/NavigationAnnouncer';

/** A loaded page's component with its loader's data; generic so the compiler pairs the two. */
function LoadedPage<P extends PageId>({ page }: { page: LoadedPageState<P> }) {
  const Component = loadedPage<P>(page.page);
  return <Component data={page.data} />;
}

function PageView({ page }: { page: PageState }) {
  if (page.page === 'not-found') return <NotFoundPage />;
  if (page.page === 'error') return <ErrorPage status={page.status} message={page.message} />;
  return <LoadedPage page={page} />;
}

export interface PortalAppProps {
  state: AppState;
  nonce: string;
  resources: ResourceStore;
  navigating: boolean;
  updateUser?: (user: PublicUser) => void;
}

export function PortalApp({ state, nonce, resources, navigating, updateUser }: PortalAppProps) {
  const route = state.page.routeId ? routeById(state.page.routeId) : undefined;
  const showsRoute = state.page.page !== 'not-found' && state.page.page !== 'error';
  return (
    <PortalContext.Provider value={{ state, nonce, resources, navigating, ...(updateUser ? { updateUser } : {}) }}>
      <Layout kind={showsRoute && route ? route.layout : 'default'}>
        <PageErrorBoundary key={state.page.path}>
          <PageView page={state.page} />
        </PageErrorBoundary>
      </Layout>
      <NavigationAnnouncer />
    </PortalContext.Provider>
  );
}
