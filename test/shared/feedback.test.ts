import { checkFeedback, FEEDBACK_MESSAGES } from '../../shared/feedback';

describe('feedback rules', () => {
  it('accepts 5–500 characters counted as readers count them, trimmed, with an optional contact', () => {
    expect(checkFeedback({ content: '  五个字正好 ' })).toEqual({ ok: true, value: { content: '五个字正好', contact: '' } });
    expect(checkFeedback({ content: '😀😀😀😀😀' })).toMatchObject({ ok: true });
    expect(checkFeedback({ content: '好'.repeat(500), contact: null })).toMatchObject({ ok: true });
    expect(checkFeedback({ content: '多行反馈\n第二行', contact: ' 138 0000 0000 ' })).toEqual({
      ok: true,
      value: { content: '多行反馈\n第二行', contact: '138 0000 0000' },
    });
  });

  it('refuses missing, short, long, non-text and control-character input with a reason', () => {
    expect(checkFeedback({})).toEqual({ ok: false, message: FEEDBACK_MESSAGES.contentMissing });
    expect(checkFeedback({ content: '    ' })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.contentMissing });
    expect(checkFeedback({ content: '四个字呀' })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.contentLength });
    expect(checkFeedback({ content: '好'.repeat(501) })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.contentLength });
    expect(checkFeedback({ content: ['数组不是文本'] })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.notText });
    expect(checkFeedback({ content: '足够长的反馈', contact: 42 })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.notText });
    expect(checkFeedback({ content: '足够长的\u0000反馈' })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.notText });
    expect(checkFeedback({ content: '足够长的反馈', contact: 'x'.repeat(101) })).toEqual({ ok: false, message: FEEDBACK_MESSAGES.contactLength });
  });
});
