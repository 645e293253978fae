/** One entry of the docs' contents: an anchor on the page (or another page), maybe with entries under it. */
export interface ContentsEntry {
  href: string;
  label: string;
  children?: ContentsEntry[];
}

function ContentsList({ entries }: { entries: ContentsEntry[] }) {
  return (
    <ol>
      {entries.map((entry) => (
        <li key={entry.href}>
          <a href={entry.href}>{entry.label}</a>
          {entry.children && entry.children.length > 0 && <ContentsList entries={entry.children} />}
        </li>
      ))}
    </ol>
  );
}

/**
 * The page's contents: a sidebar that stays in view beside the text on a wide screen, a "Contents"
 * disclosure under the title on a phone. One list, rendered in both places; CSS shows one of them
 * (display: none also takes the other out of the accessibility tree), so no script decides.
 */
export function DocsContents({ entries }: { entries: ContentsEntry[] }) {
  return (
    <>
      <details className="docs-contents docs-contents-narrow">
        <summary>Contents</summary>
        <nav aria-label="Contents">
          <ContentsList entries={entries} />
        </nav>
      </details>
      <nav aria-label="Contents" className="docs-contents docs-contents-wide">
        <p className="docs-contents-title">Contents</p>
        <ContentsList entries={entries} />
      </nav>
    </>
  );
}
