import type { ReactNode } from 'react';

export interface Fact {
  term: string;
  value: ReactNode;
}

/** A labelled list of facts about one thing (a DNS record, a connection's settings): term above value. */
export function Facts({ label, facts }: { label: string; facts: (Fact | false | null | undefined)[] }) {
  return (
    <dl className="auth-profile console-record" aria-label={label}>
      {facts
        .filter((fact): fact is Fact => Boolean(fact))
        .map((fact) => (
          <div key={fact.term}>
            <dt>{fact.term}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
    </dl>
  );
}
