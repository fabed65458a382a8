/** What a route of the reference API is and is handed: its own module, which the route tables import. */
import type { ControlState } from './control';
import type { Dataset } from './dataset';
import type { BodyFields, Reply } from './http';
import type { Presenter } from './present';

export interface RouteContext {
  dataset: Dataset;
  control: ControlState;
  present: Presenter;
  /** Current unix seconds on the dataset's clock (its `now` plus time elapsed since creation). */
  clock(): number;
}

export interface ApiRequest {
  query: URLSearchParams;
  body: BodyFields;
  /** Capture groups of the route pattern. */
  params: readonly string[];
}

export type Handler = (ctx: RouteContext, req: ApiRequest) => Reply;

export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handler: Handler;
}
