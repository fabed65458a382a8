/**
 * The reader's feedback (POST /api/common/feedback; docs/product.md §7 leaves the body open): the text, 5–500 characters,
 * and an optional way to reach the reader, at most 100. One rule set for the form, the portal's proxy and the
 * reference API, so the three never disagree on what is acceptable.
 */
export const FEEDBACK_MIN_CHARS = 5;
export const FEEDBACK_MAX_CHARS = 500;
export const CONTACT_MAX_CHARS = 100;

export interface FeedbackInput {
  content: string;
  contact: string;
}

export type FeedbackCheck = { ok: true; value: FeedbackInput } | { ok: false; message: string };

export const FEEDBACK_MESSAGES = {
  contentMissing: '请填写反馈内容',
  contentLength: `反馈内容需为${FEEDBACK_MIN_CHARS}–${FEEDBACK_MAX_CHARS}个字`,
  contactLength: `联系方式不能超过${CONTACT_MAX_CHARS}个字`,
  notText: '反馈内容格式不正确',
} as const;

/** Characters as readers count them: code points, so an emoji or a rare Han character counts once. */
export function charCount(text: string): number {
  return [...text].length;
}

/** Control characters other than line breaks and tabs have no place in a message to the editors. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Trims both fields and checks them; `contact` may be missing or null. */
export function checkFeedback(body: { content?: unknown; contact?: unknown }): FeedbackCheck {
  if (body.content === undefined || body.content === null || body.content === '') return { ok: false, message: FEEDBACK_MESSAGES.contentMissing };
  if (typeof body.content !== 'string') return { ok: false, message: FEEDBACK_MESSAGES.notText };
  const contactRaw = body.contact ?? '';
  if (typeof contactRaw !== 'string') return { ok: false, message: FEEDBACK_MESSAGES.notText };
  const content = body.content.trim();
  const contact = contactRaw.trim();
  if (content === '') return { ok: false, message: FEEDBACK_MESSAGES.contentMissing };
  if (CONTROL.test(content) || CONTROL.test(contact)) return { ok: false, message: FEEDBACK_MESSAGES.notText };
  const length = charCount(content);
  if (length < FEEDBACK_MIN_CHARS || length > FEEDBACK_MAX_CHARS) return { ok: false, message: FEEDBACK_MESSAGES.contentLength };
  if (charCount(contact) > CONTACT_MAX_CHARS) return { ok: false, message: FEEDBACK_MESSAGES.contactLength };
  return { ok: true, value: { content, contact } };
}
