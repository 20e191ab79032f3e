import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  CreatePersonalTokenDocument,
  PersonalTokensDocument,
  RevokePersonalTokenDocument,
} from '@trove/api-client/browser';
import { gql } from '../api/client';
import { formatDate } from '../components/format';
import { Empty, ErrorNotice, Loading } from '../components/states';

/**
 * Personal access tokens: for scripts and agents acting as you, with your rights as they are
 * whenever the token is used. The secret is shown once.
 */
export function TokensPage() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ['personalTokens'], queryFn: () => gql(PersonalTokensDocument) });
  const [name, setName] = useState('');
  const [days, setDays] = useState<number | string>(90);
  const create = useMutation({
    mutationFn: () =>
      gql(CreatePersonalTokenDocument, {
        input: { name: name.trim(), expiresInDays: typeof days === 'number' ? days : null },
      }),
    onSuccess: () => {
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['personalTokens'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => gql(RevokePersonalTokenDocument, { id }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['personalTokens'] }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <Stack>
      <Title order={2}>Personal tokens</Title>
      <Text size="sm" c="dimmed">
        A token acts as you, with your access as it is when it is used: send it as{' '}
        <Code>Authorization: Bearer …</Code>. It stops working when you revoke it or your account is
        deactivated.
      </Text>
      <form onSubmit={submit}>
        <Group align="flex-end">
          <TextInput
            label="Name"
            placeholder="what uses it"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
          />
          <NumberInput
            label="Expires in days"
            min={1}
            max={366}
            value={days}
            onChange={setDays}
            allowDecimal={false}
            w={150}
          />
          <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
            Create token
          </Button>
        </Group>
      </form>
      {create.error && <ErrorNotice error={create.error} />}
      {create.data && (
        <Alert color="green" title={`Token "${create.data.createPersonalToken.token.name}" created`}>
          <Stack gap="xs">
            <Text size="sm">Copy it now: it is not shown again.</Text>
            <Group>
              <Code data-testid="new-token">{create.data.createPersonalToken.secret}</Code>
              <CopyButton value={create.data.createPersonalToken.secret}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      {tokens.isPending ? (
        <Loading />
      ) : tokens.error ? (
        <ErrorNotice error={tokens.error} />
      ) : tokens.data.personalTokens.length === 0 ? (
        <Empty title="No tokens yet" />
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Token</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.personalTokens.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>{token.name}</Table.Td>
                <Table.Td>
                  <Code>{token.prefix}</Code>
                </Table.Td>
                <Table.Td>{formatDate(token.createdAt)}</Table.Td>
                <Table.Td>{token.expiresAt ? formatDate(token.expiresAt) : 'never'}</Table.Td>
                <Table.Td>{token.lastUsedAt ? formatDate(token.lastUsedAt) : '—'}</Table.Td>
                <Table.Td>
                  {token.revokedAt ? (
                    <Text size="sm" c="dimmed">
                      revoked
                    </Text>
                  ) : (
                    <Button size="xs" color="red" variant="light" onClick={() => revoke.mutate(token.id)}>
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
