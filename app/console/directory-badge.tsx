/** Marks a member or group a directory (SCIM) manages: changes belong in the directory, which would undo them. */
export function DirectoryBadge({ managed }: { managed: boolean }) {
  return managed ? (
    <span className="badge" title="Provisioned by your directory (Directory sync): change it there.">
      Directory
    </span>
  ) : null;
}
