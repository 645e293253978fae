import { Fragment } from 'react';

/** http(s) URLs in a mail's text; a full stop or comma right after one ends the sentence, not the URL. */
const URL_PATTERN = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)])/g;

/** A mail's plain text as sent (line breaks kept), its links clickable. */
export function MailText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <p className="dev-mail-text">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} rel="noreferrer">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </p>
  );
}
