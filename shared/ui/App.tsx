/**
 * The portal's React tree, the same on the server and in the browser: React Router's data router (both sides),
 * whose root route is the route's layout around the page its loader returned (shared/ui/routes.tsx).
 *
 * `PortalShell` sits above the router and holds what stays put across navigations (site, reader, layout data,
 * nonce, suspense resources); `PortalRoot`, the root route's component, adds the page shown (the leaf route's
 * loader data) and whether a navigation is loading, as the one `PortalContext` every block reads.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useMatches, useNavigation } from 'react-router-dom';
import type { AppState, LoadedPageState, PageState, PublicUser } from '../app-state';
import type { PageId } from '../page-data';
import { routeById } from '../routes';
import { loadedPage } from '../pages/registry';
import { PortalContext, usePage, type PortalContextValue } from './context';
import { NavigationAnnouncer } from './blocks/NavigationAnnouncer';
import type { ResourceStore } from './data/resource-store';
import { Layout } from './layouts/Layout';
import { ErrorPage, NotFoundPage } from './StatusPage';

/** A loaded page's component with its loader's data; generic so the compiler pairs the two. */
function LoadedPage<P extends PageId>({ page }: { page: LoadedPageState<P> }) {
  const Component = loadedPage<P>(page.page);
  return <Component data={page.data} />;
}

export function PageView({ page }: { page: PageState }) {
  if (page.page === 'not-found') return <NotFoundPage />;
  if (page.page === 'error') return <ErrorPage status={page.status} message={page.message} />;
  return <LoadedPage page={page} />;
}

type ShellValue = Omit<PortalContextValue, 'navigating'>;

const ShellContext = createContext<ShellValue | null>(null);

export interface PortalShellProps {
  /** The document's state: its page is the one the router's hydration data (or the server's query) also holds. */
  state: AppState;
  nonce: string;
  resources: ResourceStore;
  updateUser?: (user: PublicUser) => void;
  children: ReactNode;
}

export function PortalShell({ state, nonce, resources, updateUser, children }: PortalShellProps) {
  const value = useMemo<ShellValue>(() => ({ state, nonce, resources, ...(updateUser ? { updateUser } : {}) }), [state, nonce, resources, updateUser]);
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

function useShell(): ShellValue {
  const value = useContext(ShellContext);
  if (!value) throw new Error('the portal root route rendered outside <PortalShell>');
  return value;
}

/** Loader data is a page state when it has the fields every page state has (routes' loaders return nothing else). */
export function isPageState(data: unknown): data is PageState {
  if (typeof data !== 'object' || data === null) return false;
  const candidate = data as Partial<Record<keyof PageState, unknown>>;
  return typeof candidate.path === 'string' && typeof candidate.page === 'string' && typeof candidate.status === 'number';
}

/** The page the deepest matched route's loader returned; undefined while none has (an error boundary shows). */
function useLoadedPage(): PageState | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const data = matches[index]?.data;
    if (isPageState(data)) return data;
  }
  return undefined;
}

/** The page state an error boundary shows in the layout: the error page, at the time the document was made. */
export function errorPageState(base: PageState, path: string): PageState {
  return { path, params: {}, status: 500, head: base.head, now: base.now, routeId: null, page: 'error', data: null };
}

/** The root route's component: the context every block reads, and the route's layout around the matched page. */
export function PortalRoot({ children }: { children: ReactNode }) {
  const shell = useShell();
  const navigation = useNavigation();
  const page = useLoadedPage() ?? errorPageState(shell.state.page, shell.state.page.path);
  const value = useMemo<PortalContextValue>(
    () => ({ ...shell, state: { ...shell.state, page }, navigating: navigation.state !== 'idle' }),
    [shell, page, navigation.state],
  );
  const route = page.routeId ? routeById(page.routeId) : undefined;
  const showsRoute = page.page !== 'not-found' && page.page !== 'error';
  return (
    <PortalContext.Provider value={value}>
      <Layout kind={showsRoute && route ? route.layout : 'default'}>{children}</Layout>
      <NavigationAnnouncer />
    </PortalContext.Provider>
  );
}

/** A page route's component: the page its loader returned (or the 404 or error page it ended on). */
export function RoutePage() {
  return <PageView page={usePage()} />;
}
