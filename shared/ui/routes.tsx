/**
 * React Router's route objects of the portal, one list for both sides (data mode): a root route (the layout, the
 * context blocks read, scroll restoration) whose children are the route table's page routes (shared/routes.ts,
 * built from the pages' route modules), each with its route id and path, plus `*` for every other path. Every
 * route shows the page its loader returned and has an error boundary.
 *
 * The loaders are each side's own, given by the caller: on the server the route's loader runs the page's loader
 * (server/render/page-router.ts, in React Router's static handler); in the browser it reads `/_data/page`, which
 * the server answers from the same loaders (client/navigation/page-loader.ts). The routes do not check params: a
 * path whose params break their rules (`/detail/1/abc`) is matched here and gets the 404 page from the server.
 */
import { Outlet, ScrollRestoration, type LoaderFunction, type RouteObject, type ShouldRevalidateFunction } from 'react-router-dom';
import { pageAddress } from '../page-address';
import { routeTable } from '../routes';
import { PortalRoot, RoutePage } from './App';
import { RootErrorBoundary, RouteErrorBoundary } from './RouteError';

export const ROOT_ROUTE_ID = 'root';
export const OTHER_PATHS_ROUTE_ID = 'other-paths';

function Root() {
  return (
    <>
      <PortalRoot>
        <Outlet />
      </PortalRoot>
      <ScrollRestoration />
    </>
  );
}

/**
 * A page route's loader runs again only for another page address: parameters the page does not read (utm_*)
 * and the #hash do not make another page, as they do not make another cache entry.
 */
const anotherPage: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate && pageAddress(currentUrl.pathname, currentUrl.search) !== pageAddress(nextUrl.pathname, nextUrl.search);

/** The portal's routes, each page route with the loader `loaderOf` gives for its id. */
export function createPortalRoutes(loaderOf: (routeId: string) => LoaderFunction): RouteObject[] {
  const pageRoute = (id: string, path: string): RouteObject => ({
    id,
    path,
    // The portal's paths are case-sensitive (`/Home` is no page), on both sides (shared/routes.ts).
    caseSensitive: true,
    loader: loaderOf(id),
    shouldRevalidate: anotherPage,
    Component: RoutePage,
    ErrorBoundary: RouteErrorBoundary,
  });
  const pages = routeTable().flatMap((route) => (route.page === undefined ? [] : [pageRoute(route.id, route.path)]));
  return [
    {
      id: ROOT_ROUTE_ID,
      Component: Root,
      ErrorBoundary: RootErrorBoundary,
      children: [...pages, pageRoute(OTHER_PATHS_ROUTE_ID, '*')],
    },
  ];
}
