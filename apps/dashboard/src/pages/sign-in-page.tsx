import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { checkApiKey } from '../api/client';
import { errorMessage } from '../api/errors';
import { useSession } from '../session-context';

export function SignInPage() {
  const session = useSession();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecking(true);
    setError(undefined);
    try {
      await checkApiKey(key.trim());
      session.signIn(key.trim());
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setChecking(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <form onSubmit={submit}>
          <Stack>
            <Title order={2}>Sign in to Trove</Title>
            <Text size="sm" c="dimmed">
              Paste an API key. It is kept in this tab&apos;s session storage and sent as the X-API-Key
              header; the quick start writes the admin key to <code>.trove/admin-api-key</code>.
            </Text>
            {session.notice && <Alert color="orange">{session.notice}</Alert>}
            <PasswordInput
              label="API key"
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
              required
              autoFocus
              autoComplete="off"
            />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={checking} disabled={!key.trim()}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
