/**
 * The portal's own router: the location, how it last changed, and `navigate`, over the History API. It replaces
 * React Router, whose route matching the portal never used (shared/routes.ts has its own table) and whose Link
 * resolved its path again on every render; this one is a fraction of its size in the article page's JS
 * (docs/build.md). `Link` is a plain anchor whose click, for an unmodified primary click, navigates in the app.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

export interface PortalLocation {
  pathname: string;
  search: string;
  hash: string;
  /** Different for every history entry the app made, so an effect can tell two visits of one URL apart. */
  key: string;
}

/** How the location last changed: the first load and back/forward are POP, as in the History API's terms. */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
}

export type Navigate = (to: string, options?: NavigateOptions) => void;

interface RouterValue {
  location: PortalLocation;
  navigationType: NavigationType;
  navigate: Navigate;
}

const RouterContext = createContext<RouterValue | null>(null);

function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('the portal router is missing above this component');
  return value;
}

export function useLocation(): PortalLocation {
  return useRouter().location;
}

export function useNavigationType(): NavigationType {
  return useRouter().navigationType;
}

export function useNavigate(): Navigate {
  return useRouter().navigate;
}

/** A path (`/a/b?c=d#e`) in its parts. */
export function parsePath(path: string, key: string): PortalLocation {
  const hashAt = path.indexOf('#');
  const beforeHash = hashAt === -1 ? path : path.slice(0, hashAt);
  const searchAt = beforeHash.indexOf('?');
  return {
    pathname: searchAt === -1 ? beforeHash : beforeHash.slice(0, searchAt),
    search: searchAt === -1 ? '' : beforeHash.slice(searchAt),
    hash: hashAt === -1 ? '' : path.slice(hashAt),
    key,
  };
}

const ignoreNavigation: Navigate = () => undefined;

/** The server's router: one fixed location (the page being rendered); navigating does nothing there. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const value = useMemo<RouterValue>(() => ({ location: parsePath(location, 'default'), navigationType: 'POP', navigate: ignoreNavigation }), [location]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

interface HistoryEntryState {
  key: string;
}

function entryKey(state: unknown): string {
  const key = (state as Partial<HistoryEntryState> | null)?.key;
  return typeof key === 'string' ? key : 'default';
}

function currentLocation(): PortalLocation {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, key: entryKey(window.history.state) };
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** The browser's router: the address bar's location, pushState/replaceState to navigate, popstate for back/forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<{ location: PortalLocation; navigationType: NavigationType }>(() => ({
    location: currentLocation(),
    navigationType: 'POP',
  }));

  useEffect(() => {
    const onPopState = () => setCurrent({ location: currentLocation(), navigationType: 'POP' });
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  const navigate = useCallback<Navigate>((to, options) => {
    const state: HistoryEntryState = { key: newKey() };
    const url = new URL(to, window.location.href);
    if (options?.replace) window.history.replaceState(state, '', url);
    else window.history.pushState(state, '', url);
    setCurrent({ location: currentLocation(), navigationType: options?.replace ? 'REPLACE' : 'PUSH' });
  }, []);

  const value = useMemo<RouterValue>(() => ({ ...current, navigate }), [current, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** Clicks the browser should handle itself: another button, a modifier (new tab/window), a target, a download. */
function leavesTheApp(event: MouseEvent<HTMLAnchorElement>): boolean {
  const anchor = event.currentTarget;
  return (
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (anchor.target !== '' && anchor.target !== '_self') ||
    anchor.hasAttribute('download')
  );
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of this portal, absolute (`/detail/1/2`). */
  to: string;
  replace?: boolean;
}

/**
 * A link to a page of the portal: a real anchor (crawlers and scriptless readers follow it), whose plain click
 * navigates without reloading. A click on the address already shown replaces the entry instead of adding one.
 */
export function Link({ to, replace, onClick, children, ...rest }: LinkProps) {
  const router = useContext(RouterContext);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || !router || leavesTheApp(event)) return;
    event.preventDefault();
    const { pathname, search, hash } = window.location;
    router.navigate(to, { replace: replace ?? pathname + search + hash === to });
  };
  return (
    <a href={to} onClick={handleClick} {...rest}>
      {children}
    </a>
  );
}
