/**
 * A dotted name (an audit action, an event type, a scope) that wraps only after its dots and
 * underscores, never inside a word: on a phone "identity.organization.member.added" breaks into
 * readable pieces instead of at an arbitrary letter.
 */
export function DottedName({ name }: { name: string }) {
  const parts = name.split(/(?<=[._])/);
  return (
    <code className="console-action-name">
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 && <wbr />}
        </span>
      ))}
    </code>
  );
}
