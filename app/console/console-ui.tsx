'use client';

import { CheckboxGroup } from '../_components/form-fields';
import { PERMISSION_DESCRIPTIONS, type Permission } from '@/lib/contract/permissions';

// The generic pieces live in app/_components (the developer portal uses them too); re-exported so the sections keep one import.
export { CheckboxGroup, SelectField, TextField, checkedValues, type Choice } from '../_components/form-fields';
export { CollectionState, useSectionStatus } from '../_components/collection-state';

/** Checkboxes for a set of permissions, one fieldset; each box carries the permission's description. */
export function PermissionChoices({
  legend,
  name,
  permissions,
  defaultChecked = [],
  error,
}: {
  legend: string;
  name: string;
  permissions: readonly Permission[];
  defaultChecked?: readonly string[];
  error?: string;
}) {
  return (
    <CheckboxGroup
      legend={legend}
      name={name}
      error={error}
      options={permissions.map((permission) => ({ value: permission, label: permission, hint: PERMISSION_DESCRIPTIONS[permission] }))}
      defaultChecked={defaultChecked}
    />
  );
}
