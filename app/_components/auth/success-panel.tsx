'use client';

import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The last step of sign-up and recovery. Focus moves to its heading so screen readers announce the
 * outcome; `children` say what happens next and offer the way on.
 */
export function SuccessPanel({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="card auth-card auth-success" aria-labelledby="auth-success-heading">
      <h2 id="auth-success-heading" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}
