/**
 * How a page folder of shared/pages declares itself (docs/adding-a-page.md): `route.ts` names the page, its
 * routes and its data type with `definePage`; `index.ts` pairs that route with the component with `page`, and the
 * compiler checks that the component takes exactly that data. The loader (server/pages/<folder>/loader.ts) is typed by
 * the same route in server/pages/define.ts.
 *
 * Browser-safe and free of React but for a type: this module is part of the route table (shared/routes.ts).
 */
import type { ComponentType } from 'react';

export type ParamRule = 'id' | 'slug' | 'searchWord' | 'searchType' | 'text';

export type LayoutKind = 'default' | 'detail' | 'reading' | 'smallFooter' | 'siteMap';

interface RouteBase<Id extends string> {
  /** Stable id, unique in the table. */
  id: Id;
  path: string;
  params: Readonly<Record<string, ParamRule>>;
  layout: LayoutKind;
}

/** A route as a page's route.ts writes it: everything but the page, which definePage fills in. */
export interface RouteSpec<Id extends string = string> extends RouteBase<Id> {
  /** The route name the site has always used (several routes may share one). */
  name: string;
  /** Query parameters the page reads; every other parameter is dropped from its cache key. */
  query?: readonly string[];
  /**
   * The page shows a signed-in reader their own data: it is rendered for them, privately, never answered from
   * the shared cache (a visitor's copy of it is shared like any page). Every other page is the same for all.
   */
  perReader?: boolean;
}

/** A route that shows a page. */
export interface PageRoute<Id extends string = string, P extends string = string> extends RouteSpec<Id> {
  page: P;
}

/** A family whose required id is missing (`/V1`): matched, nameless, so it redirects home (the old site did the same). */
export interface BareRoute<Id extends string = string> extends RouteBase<Id> {
  name?: undefined;
  page?: undefined;
  query?: undefined;
}

export type RouteDef = PageRoute | BareRoute;

interface RouteOptions {
  query?: readonly string[];
  layout?: LayoutKind;
  perReader?: boolean;
}

/** The query of a paged list. */
export const PAGED = ['page'] as const;

const NO_PARAMS: Readonly<Record<string, ParamRule>> = Object.freeze({});

/** A route with every part spelled out; the helpers below are its common shapes. */
export function route<const Id extends string>(
  id: Id,
  name: string,
  path: string,
  params: Readonly<Record<string, ParamRule>>,
  options: RouteOptions = {},
): RouteSpec<Id> {
  const { query, layout = 'default', perReader } = options;
  return { id, name, path, params, layout, ...(query ? { query } : {}), ...(perReader ? { perReader } : {}) };
}

/** A path without parameters, named by its id: `/about`. */
export function fixed<const Id extends string>(id: Id, path: string, options?: RouteOptions): RouteSpec<Id> {
  return route(id, id, path, NO_PARAMS, options);
}

/** `/{segment}/{id}`, id a plain positive integer. The bare `/{segment}` redirects home (shared/routes.ts). */
export function withId<const S extends string>(segment: S, options?: RouteOptions): RouteSpec<`${S}-id`> {
  return route(`${segment}-id`, `${segment}-id`, `/${segment}/:id`, { id: 'id' }, options);
}

/** /{menu}/{sub}/{segment}/{id} and /{menu}/{segment}/{id}: the forms with a menu prefix of a withId route. */
export function underMenu<const S extends string>(segment: S, options?: RouteOptions): [RouteSpec<`menu-sub-${S}-id`>, RouteSpec<`menu-${S}-id`>] {
  return [
    route(`menu-sub-${segment}-id`, `menu-sub-${segment}-id`, `/:menu/:sub/${segment}/:id`, { menu: 'slug', sub: 'slug', id: 'id' }, options),
    route(`menu-${segment}-id`, `menu-${segment}-id`, `/:menu/${segment}/:id`, { menu: 'slug', id: 'id' }, options),
  ];
}

declare const PAGE_DATA: unique symbol;

/**
 * A page as its route.ts declares it: its id (the list's name for it), its routes, and, as a type only, the data
 * its loader returns and its component takes. The data slot is a function type so the data type is invariant:
 * a loader or a component of a wider or narrower type does not fit.
 */
export interface PageDef<P extends string = string, Id extends string = string, Data = unknown> {
  id: P;
  routes: ReadonlyArray<PageRoute<Id, P>>;
  readonly [PAGE_DATA]?: (data: Data) => Data;
}

/** Any page definition, whatever its data (the widest data slot: what every invariant one is assignable to). */
export interface AnyPageDef {
  id: string;
  routes: ReadonlyArray<PageRoute>;
  readonly [PAGE_DATA]?: (data: never) => unknown;
}

export type DataOf<Def extends AnyPageDef> = Def extends PageDef<string, string, infer Data> ? Data : never;

export type RouteIdOf<Def extends AnyPageDef> = Def['routes'][number]['id'];

/**
 * A page's id and routes, with its data type: `definePage<NewsTrackData>()('newsTrack', [withId('newsTrack')])`.
 * Curried because TypeScript infers all of a call's type arguments or none: the data is given, the rest inferred.
 */
export function definePage<Data>() {
  return <const P extends string, const Id extends string>(id: P, routes: ReadonlyArray<RouteSpec<Id>>): PageDef<P, Id, Data> => ({
    id,
    routes: routes.map(({ id: routeId, name, path, params, layout, query, perReader }) => ({
      id: routeId,
      name,
      path,
      params,
      layout,
      page: id,
      ...(query ? { query } : {}),
      ...(perReader ? { perReader } : {}),
    })),
  });
}

/** What the list of pages holds for each page: its route and the component that shows its data. */
export interface Page<P extends string, Id extends string, Data> {
  route: PageDef<P, Id, Data>;
  Component: ComponentType<{ data: Data }>;
}

/** A page folder's index.ts: its route with its component, which must take the route's data type. */
export function page<P extends string, Id extends string, Data>(route: PageDef<P, Id, Data>, Component: ComponentType<{ data: Data }>): Page<P, Id, Data> {
  return { route, Component };
}
