import { Alert, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/errors';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

/** The API's own message (never a stack trace). */
export function ErrorNotice({ error, title = 'Error' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Text fw={600}>{title}</Text>
      {children && (
        <Text size="sm" c="dimmed" mt={4}>
          {children}
        </Text>
      )}
    </Paper>
  );
}
