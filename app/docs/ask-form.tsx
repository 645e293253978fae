'use client';

import { useId, useState, type FormEvent } from 'react';
import type { CallOutput } from '@/lib/contract/client';
import { CONTRACTS, type Contracts } from '@/lib/http/contracts';
import { callContract } from '../_components/api/call';
import { problemMessage } from '../_components/auth/api';

type Answer = CallOutput<Contracts['askDocs']>;

/** Asks the documentation from the browser (same origin, so the exact-Origin rule holds). */
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
    const result = await callContract(CONTRACTS.askDocs, { body: { question, page: '/docs' } });
    setPending(false);
    setAnswer(result.ok ? result.body : null);
    if (!result.ok) setError(problemMessage(result.body));
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
