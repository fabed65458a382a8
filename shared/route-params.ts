/** Params of a matched route, already checked against their rules in routes.ts. */
export type RouteParams = Readonly<Record<string, string | undefined>>;

/** Integer param that passed its 'id' rule; undefined when the optional segment was absent. */
export function idParam(params: RouteParams, name: string): number | undefined {
  const value = params[name];
  return value === undefined ? undefined : Number(value);
}
