'use client';

import { useId, useState, type FormEvent } from 'react';

interface Answer {
  answer: string;
  sources: { title: string; url: string }[];
}

/** Calls POST /api/docs/ask from the browser (same origin, so the exact-Origin rule holds). */
export function AskForm() {
  const id = useId();
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const question = String(new FormData(event.currentTarget).get('question') ?? '');
    setPending(true);
    setError(null);
    try {
      const response = await fetch('/api/docs/ask', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ question, page: '/docs' }),
      });
      const body = (await response.json()) as Answer & { detail?: string; title?: string };
      if (!response.ok) {
        setAnswer(null);
        setError(body.detail ?? body.title ?? 'The question could not be answered.');
      } else {
        setAnswer(body);
      }
    } catch {
      setError('The service could not be reached.');
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="stack" onSubmit={submit} aria-describedby={`${id}-hint`}>
      <label htmlFor={`${id}-question`}>Your question</label>
      <textarea id={`${id}-question`} name="question" rows={3} required maxLength={2000} />
      <p className="hint" id={`${id}-hint`}>
        Answers are advisory. Never paste passwords, codes or tokens.
      </p>
      <div>
        <button type="submit" disabled={pending}>
          {pending ? 'Asking…' : 'Ask'}
        </button>
      </div>
      <div aria-live="polite">
        {error && <p className="error">{error}</p>}
        {answer && (
          <>
            <div className="answer">{answer.answer}</div>
            {answer.sources.length > 0 && (
              <p className="hint">
                Sources:{' '}
                {answer.sources.map((s, i) => (
                  <span key={s.url}>
                    {i > 0 && ', '}
                    <a href={s.url}>{s.title}</a>
                  </span>
                ))}
              </p>
            )}
          </>
        )}
      </div>
    </form>
  );
}
