/**
 * What a proxied POST body may be: a flat JSON object of a few short scalars or lists of scalars (ids, a
 * keyword, feedback text). Anything deeper or bigger is refused before it reaches the CMS.
 */
import { z } from 'zod';

export const MAX_BODY_BYTES = 16 * 1024;
const MAX_FIELDS = 32;

const scalar = z.union([z.string().max(8000), z.number().finite(), z.boolean(), z.null()]);
const field = z.union([scalar, z.array(scalar).max(200)]);

export const proxyBody = z
  .record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), field)
  .refine((body) => Object.keys(body).length <= MAX_FIELDS, { message: `at most ${MAX_FIELDS} fields` });

export type ProxyBody = z.infer<typeof proxyBody>;
