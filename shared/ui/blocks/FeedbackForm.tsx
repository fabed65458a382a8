/**
 * The feedback form of the personal center (POST /api/common/feedback through the proxy). Checked here with the
 * same rules the proxy and the CMS apply (shared/feedback.ts), sent once (the button is disabled and a second
 * submit ignored while one is in flight), and answered in a polite live region.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { charCount, checkFeedback, CONTACT_MAX_CHARS, FEEDBACK_MAX_CHARS, FEEDBACK_MIN_CHARS } from '../../feedback';
import type { RawFeedbackReceipt } from '../../types/interactions';
import { proxyPost } from '../lib/proxy-fetch';

export const FEEDBACK_SENT = '提交成功，感谢您的反馈！';
const FEEDBACK_FAILED = '提交失败，请稍后再试';

type Result = { kind: 'ok' | 'error'; message: string } | null;

export function FeedbackForm() {
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result>(null);
  // State updates land after the event: a double click would see `sending` still false. The ref does not wait.
  const inFlight = useRef(false);
  const contentId = useId();
  const contactId = useId();
  const countId = useId();

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (inFlight.current) return;
    const checked = checkFeedback({ content, contact });
    if (!checked.ok) {
      setResult({ kind: 'error', message: checked.message });
      return;
    }
    inFlight.current = true;
    setSending(true);
    setResult(null);
    const answer = await proxyPost<RawFeedbackReceipt>('/api/common/feedback', { ...checked.value });
    inFlight.current = false;
    setSending(false);
    if (answer.code !== 0) {
      setResult({ kind: 'error', message: answer.msg && answer.msg !== '失败' ? answer.msg : FEEDBACK_FAILED });
      return;
    }
    setContent('');
    setContact('');
    setResult({ kind: 'ok', message: FEEDBACK_SENT });
  }

  const count = charCount(content.trim());
  return (
    <form className="feedback-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={contentId}>反馈内容</label>
      <textarea
        id={contentId}
        name="content"
        value={content}
        rows={6}
        required
        aria-describedby={countId}
        placeholder={`请写下您的意见或建议（${FEEDBACK_MIN_CHARS}–${FEEDBACK_MAX_CHARS}字）`}
        onChange={(event) => setContent(event.target.value)}
      />
      <p id={countId} className={count > FEEDBACK_MAX_CHARS ? 'feedback-form__count feedback-form__count--over' : 'feedback-form__count'}>
        {count}/{FEEDBACK_MAX_CHARS}
      </p>
      <label htmlFor={contactId}>联系方式（选填）</label>
      <input
        id={contactId}
        name="contact"
        value={contact}
        maxLength={CONTACT_MAX_CHARS * 2}
        placeholder="手机号或邮箱，方便我们回复您"
        onChange={(event) => setContact(event.target.value)}
      />
      <button type="submit" className="button" disabled={sending}>
        {sending ? '提交中…' : '提交反馈'}
      </button>
      <p className={result?.kind === 'error' ? 'feedback-form__result feedback-form__result--error' : 'feedback-form__result'} role="status">
        {result?.message ?? ''}
      </p>
    </form>
  );
}
