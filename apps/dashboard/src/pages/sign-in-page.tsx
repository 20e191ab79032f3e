import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { checkApiKey } from '../api/client';
import { errorMessage } from '../api/errors';
import { SIGN_IN_ERRORS, signInProviders } from '../api/people-session';
import { useSession } from '../session-context';

/**
 * Signing in: with the company's identity provider (a button per provider), or — behind a link,
 * for operators and automation — with an API key.
 */
export function SignInPage() {
  const session = useSession();
  const location = useLocation();
  const providers = useQuery({
    queryKey: ['signInProviders'],
    queryFn: signInProviders,
    staleTime: Infinity,
  });
  const failed = new URLSearchParams(location.search).get('signInError');
  const [withKey, setWithKey] = useState(false);
  // Back where the person was; from the front page, to the landing (Ask in their last project).
  const returnTo = location.pathname;
  const hasProviders = (providers.data?.length ?? 0) > 0;

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Title order={2}>Sign in to Trove</Title>
          {session.notice && <Alert color="orange">{session.notice}</Alert>}
          {failed && (
            <Alert color="red" role="alert" title="Sign-in refused">
              {SIGN_IN_ERRORS[failed] ?? `The sign-in was refused (${failed}).`}
            </Alert>
          )}
          {providers.data?.map((provider) => (
            <Button
              key={provider.id}
              component="a"
              href={`${provider.loginUrl}?returnTo=${encodeURIComponent(returnTo)}`}
              size="md"
            >
              Sign in with {provider.name}
            </Button>
          ))}
          {providers.isSuccess && !hasProviders && (
            <Text size="sm" c="dimmed">
              No identity provider is configured (TROVE_OIDC_PROVIDERS): sign in with an API key.
            </Text>
          )}
          {hasProviders && !withKey ? (
            <Anchor component="button" type="button" size="sm" c="dimmed" onClick={() => setWithKey(true)}>
              Sign in with an API key instead
            </Anchor>
          ) : (
            providers.isSuccess && (
              <>
                {hasProviders && <Divider label="or, for operators" labelPosition="center" />}
                <ApiKeyForm />
              </>
            )
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

function ApiKeyForm() {
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
    <form onSubmit={submit}>
      <Stack>
        <Text size="sm" c="dimmed">
          Paste an API key. It is kept in this tab&apos;s session storage and sent as the X-API-Key header;
          the quick start writes the admin key to <code>.trove/admin-api-key</code>.
        </Text>
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
        <Button type="submit" variant="light" loading={checking} disabled={!key.trim()}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
