/**
 * The control plane over HTTP (/__control/…), for tests and benchmarks running in another process. Plain JSON
 * (not the CMS envelope) with real HTTP status codes, since only tooling talks to it.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { AnswerRule, ControlState, FailureRule, LatencyRule } from './control';
import { json, readJson, type Reply } from './http';

export const CONTROL_PREFIX = '/__control';

const latencyRule = z.strictObject({ path: z.string().startsWith('/'), ms: z.number().int().min(0).max(600_000) });
const failureRule = z.strictObject({
  path: z.string().startsWith('/'),
  mode: z.enum(['http500', 'hang', 'badjson', 'code', 'redirect']),
  code: z
    .number()
    .int()
    .refine((code) => code !== 0, 'code must be non-zero')
    .optional(),
  status: z.number().int().min(300).max(399).optional(),
  location: z.string().max(2048).optional(),
});
/** Rules may come bare (an array) or wrapped as {rules: [...]}. */
function rulesOf<T extends z.ZodType>(rule: T) {
  return z.union([z.array(rule), z.strictObject({ rules: z.array(rule) }).transform((value) => value.rules)]);
}
const answerRule = z.strictObject({ path: z.string().startsWith('/'), body: z.unknown() }).transform((rule) => ({ path: rule.path, body: rule.body }));
const latencyBody = rulesOf(latencyRule);
const answerBody = rulesOf(answerRule);
const failureBody = rulesOf(failureRule);

const tag = z.strictObject({ id: z.number().int(), name: z.string() });
const articlePatch = z.strictObject({
  id: z.number().int().optional(),
  catid: z.number().int().optional(),
  title: z.string().optional(),
  list_title: z.string().optional(),
  description: z.string().optional(),
  thumb: z.string().optional(),
  adddate: z.number().int().optional(),
  source: z.string().optional(),
  catname: z.string().optional(),
  author: z.string().optional(),
  keywords: z.string().optional(),
  content: z.string().optional(),
  views: z.number().int().optional(),
  tags: z.array(tag).optional(),
  editor: z.string().optional(),
  // 0 or null as a CMS might send for none: the portal links a byline only for a positive id.
  columnist_id: z.number().int().nullable().optional(),
});
const greyModeBody = z.strictObject({ mode: z.enum(['0', '1', '2']) });
const menuFaultsBody = z.strictObject({ on: z.boolean() });

function badRequest(error: z.ZodError | Error): Reply {
  return json(400, { ok: false, error: error instanceof z.ZodError ? z.prettifyError(error) : error.message });
}

const OK: Reply = json(200, { ok: true });

async function parseBody<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<{ value: T } | { error: Reply }> {
  try {
    const result = schema.safeParse(await readJson(req));
    return result.success ? { value: result.data } : { error: badRequest(result.error) };
  } catch (error) {
    return { error: badRequest(error instanceof Error ? error : new Error(String(error))) };
  }
}

export async function handleControl(control: ControlState, method: string, path: string, req: IncomingMessage): Promise<Reply> {
  const action = path.slice(CONTROL_PREFIX.length);
  if (method === 'GET' && action === '/stats') return json(200, control.stats());
  if (method !== 'POST') return json(404, { ok: false, error: 'Not Found' });
  if (action === '/reset') {
    control.reset();
    return OK;
  }
  if (action === '/latency') {
    const parsed = await parseBody(req, latencyBody);
    if ('error' in parsed) return parsed.error;
    control.setLatency(parsed.value satisfies LatencyRule[]);
    return OK;
  }
  if (action === '/failures') {
    const parsed = await parseBody(req, failureBody);
    if ('error' in parsed) return parsed.error;
    control.setFailures(parsed.value satisfies FailureRule[]);
    return OK;
  }
  if (action === '/answers') {
    const parsed = await parseBody(req, answerBody);
    if ('error' in parsed) return parsed.error;
    control.setAnswers(parsed.value satisfies AnswerRule[]);
    return OK;
  }
  if (action === '/menu-faults') {
    const parsed = await parseBody(req, menuFaultsBody);
    if ('error' in parsed) return parsed.error;
    control.setMenuFaults(parsed.value.on);
    return OK;
  }
  if (action === '/grey-mode') {
    const parsed = await parseBody(req, greyModeBody);
    if ('error' in parsed) return parsed.error;
    control.setGreyMode(parsed.value.mode);
    return OK;
  }
  const drafts = await draftReply(control, action, req);
  if (drafts) return drafts;
  const article = /^\/article\/(\d{1,9})$/.exec(action);
  if (article) {
    const parsed = await parseBody(req, articlePatch);
    if ('error' in parsed) return parsed.error;
    return control.overrideArticle(Number(article[1]), parsed.value) ? OK : json(404, { ok: false, error: 'no such article' });
  }
  return json(404, { ok: false, error: 'Not Found' });
}

const newDraft = articlePatch.extend({ catid: z.number().int() });

/**
 * Drafts, for the editors' preview (docs/preview.md): `/draft/{id}` a draft of an article, `/drafts` a new
 * article that exists only as a draft (answers its id), `/publish/{id}` what the CMS does on publish. Null for
 * any other action.
 */
async function draftReply(control: ControlState, action: string, req: IncomingMessage): Promise<Reply | null> {
  const draft = /^\/draft\/(\d{1,9})$/.exec(action);
  if (draft) {
    const parsed = await parseBody(req, articlePatch);
    if ('error' in parsed) return parsed.error;
    return control.draftArticle(Number(draft[1]), parsed.value) ? OK : json(404, { ok: false, error: 'no such article' });
  }
  if (action === '/drafts') {
    const parsed = await parseBody(req, newDraft);
    if ('error' in parsed) return parsed.error;
    const id = control.createDraftArticle(parsed.value.catid, parsed.value);
    return id === null ? json(404, { ok: false, error: 'no article in that category to shape a draft on' }) : json(200, { ok: true, id });
  }
  const publish = /^\/publish\/(\d{1,9})$/.exec(action);
  if (publish) return control.publishDraft(Number(publish[1])) ? OK : json(404, { ok: false, error: 'no draft of that article' });
  return null;
}
