import {
  Checkbox,
  NativeSelect,
  NumberInput,
  PasswordInput,
  SimpleGrid,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { describedSettings, type FormField, type FormValues } from './config-form';

interface Props {
  fields: readonly FormField[];
  values: FormValues;
  onChange: (name: string, value: string | number | boolean) => void;
  /** Each field's problem (the API's, or the form's own). */
  errors: Record<string, string>;
  /** Editing a stored source: secrets may stay blank (kept), with the stored one's hint. */
  secretHints?: Record<string, string>;
}

/** The inputs of a source type's configuration, one per field of its schema. */
export function SourceConfigFields({ fields, values, onChange, errors, secretHints }: Props) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
      {fields.map((field) => (
        <ConfigInput
          key={field.name}
          field={field}
          value={values[field.name]}
          onChange={(value) => onChange(field.name, value)}
          error={errors[field.name]}
          hint={secretHints?.[field.name]}
          editing={secretHints !== undefined}
        />
      ))}
    </SimpleGrid>
  );
}

function ConfigInput({
  field,
  value,
  onChange,
  error,
  hint,
  editing,
}: {
  field: FormField;
  value: string | number | boolean | undefined;
  onChange: (value: string | number | boolean) => void;
  error?: string;
  hint?: string;
  editing: boolean;
}) {
  const common = {
    label: field.label,
    description: explained(field.description),
    error,
    // A stored secret need not be given again.
    withAsterisk: field.required && !(editing && field.secret),
    name: field.name,
  };
  const text = typeof value === 'string' ? value : '';
  switch (field.kind) {
    case 'boolean':
      return (
        <Checkbox
          label={field.label}
          description={explained(field.description)}
          error={error}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          mt="md"
        />
      );
    case 'integer':
    case 'number':
      return (
        <NumberInput
          {...common}
          min={field.min}
          max={field.max}
          allowDecimal={field.kind === 'number'}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(typeof next === 'number' ? next : '')}
        />
      );
    case 'select':
      return (
        <NativeSelect
          {...common}
          data={field.required || field.default !== undefined ? field.options! : ['', ...field.options!]}
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'list':
      return (
        <Textarea
          {...common}
          description={explained(field.description, 'one per line')}
          autosize
          minRows={2}
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'json':
      return (
        <Textarea
          {...common}
          description={explained(field.description, 'JSON')}
          autosize
          minRows={2}
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
          ff="monospace"
        />
      );
    default:
      if (field.secret) {
        return (
          <PasswordInput
            {...common}
            placeholder={hint ? `unchanged (${hint})` : undefined}
            autoComplete="off"
            value={text}
            onChange={(event) => onChange(event.currentTarget.value)}
          />
        );
      }
      return (
        <TextInput
          {...common}
          type={field.kind === 'url' ? 'url' : 'text'}
          placeholder={field.kind === 'url' ? 'https://' : undefined}
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}

/**
 * A field's description in words; the server settings it names (for whoever runs the server)
 * follow as a secondary hint.
 */
function explained(description: string | undefined, format?: string): ReactNode {
  const { text, settings } = describedSettings(description);
  const words = [text, format].filter(Boolean).join('; ');
  if (settings.length === 0) return words || undefined;
  return (
    <>
      {words}
      <Text span size="xs" c="dimmed" display="block" data-testid="setting-hint">
        server setting: {settings.join(', ')}
      </Text>
    </>
  );
}
