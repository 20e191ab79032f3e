import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  AddGroupMemberDocument,
  type ApiKeyRole,
  CreateGroupDocument,
  CreateUserDocument,
  DeactivateUserDocument,
  GroupsDocument,
  ReactivateUserDocument,
  RemoveGroupMemberDocument,
  UsersDocument,
} from '@trove/api-client/browser';
import { gql } from '../api/client';
import { formatDate } from '../components/format';
import { ErrorNotice, Loading } from '../components/states';

/** People and groups (install-wide ADMINs): who has signed in, their status; local groups and their members. */
export function PeoplePage() {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const users = useQuery({
    queryKey: ['users', search],
    queryFn: () => gql(UsersDocument, { first: 200, search: search || null }),
    placeholderData: keepPreviousData,
  });
  const groups = useQuery({ queryKey: ['groups'], queryFn: () => gql(GroupsDocument) });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['users'] });
    void queryClient.invalidateQueries({ queryKey: ['groups'] });
  };
  const status = useMutation({
    mutationFn: async ({ id, active }: { id: string; active: boolean }): Promise<void> => {
      if (active) await gql(ReactivateUserDocument, { id });
      else await gql(DeactivateUserDocument, { id });
    },
    onSuccess: refresh,
  });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiKeyRole | null>(null);
  const invite = useMutation({
    mutationFn: () => gql(CreateUserDocument, { input: { email: email.trim(), name: name.trim(), role } }),
    onSuccess: () => {
      setEmail('');
      setName('');
      refresh();
    },
  });
  const [groupName, setGroupName] = useState('');
  const createGroup = useMutation({
    mutationFn: () => gql(CreateGroupDocument, { name: groupName.trim() }),
    onSuccess: () => {
      setGroupName('');
      refresh();
    },
  });
  const membership = useMutation({
    mutationFn: async ({
      groupId,
      userId,
      add,
    }: {
      groupId: string;
      userId: string;
      add: boolean;
    }): Promise<void> => {
      if (add) await gql(AddGroupMemberDocument, { groupId, userId });
      else await gql(RemoveGroupMemberDocument, { groupId, userId });
    },
    onSuccess: refresh,
  });
  const people = users.data?.users.nodes ?? [];

  return (
    <Stack>
      <Title order={2}>People</Title>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="name or email"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
      </Group>
      {status.error && <ErrorNotice error={status.error} />}
      {users.isPending ? (
        <Loading />
      ) : users.error ? (
        <ErrorNotice error={users.error} />
      ) : (
        <Table striped data-testid="people">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.name}</Table.Td>
                <Table.Td>{user.email ?? '—'}</Table.Td>
                <Table.Td>{user.role ?? 'project roles'}</Table.Td>
                <Table.Td>
                  <Badge color={user.status === 'ACTIVE' ? 'green' : 'gray'} variant="light">
                    {user.status === 'ACTIVE' ? (user.provider ? 'active' : 'invited') : 'deactivated'}
                  </Badge>
                </Table.Td>
                <Table.Td>{user.lastSeenAt ? formatDate(user.lastSeenAt) : '—'}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    color={user.status === 'ACTIVE' ? 'red' : 'green'}
                    onClick={() => status.mutate({ id: user.id, active: user.status !== 'ACTIVE' })}
                  >
                    {user.status === 'ACTIVE' ? 'Deactivate' : 'Reactivate'}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Title order={4}>Add a person ahead of their first sign-in</Title>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          invite.mutate();
        }}
      >
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} required />
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <Select
            label="Install-wide role"
            placeholder="none (project roles only)"
            data={['VIEWER', 'EDITOR', 'ADMIN']}
            value={role}
            onChange={(value) => setRole(value as ApiKeyRole | null)}
            clearable
          />
          <Button type="submit" loading={invite.isPending}>
            Add person
          </Button>
        </Group>
      </form>
      {invite.error && <ErrorNotice error={invite.error} />}

      <Title order={3}>Groups</Title>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          createGroup.mutate();
        }}
      >
        <Group align="flex-end">
          <TextInput
            label="New local group"
            value={groupName}
            onChange={(e) => setGroupName(e.currentTarget.value)}
            required
          />
          <Button type="submit" variant="light" loading={createGroup.isPending}>
            Create group
          </Button>
        </Group>
      </form>
      {createGroup.error && <ErrorNotice error={createGroup.error} />}
      {membership.error && <ErrorNotice error={membership.error} />}
      {groups.data?.groups.map((group) => (
        <Stack key={group.id} gap={4}>
          <Group gap="xs">
            <Text fw={600}>{group.name}</Text>
            <Badge size="xs" variant="light">
              {group.provider ?? 'local'}
            </Badge>
            <Text size="sm" c="dimmed">
              {group.memberCount} {group.memberCount === 1 ? 'member' : 'members'}
            </Text>
          </Group>
          <Text size="sm">{group.members.map((m) => m.name).join(', ') || '—'}</Text>
          {!group.provider && (
            <Select
              placeholder="Add a person…"
              data={people
                .filter((p) => !group.members.some((m) => m.id === p.id))
                .map((p) => ({ value: p.id, label: p.name }))}
              onChange={(userId) => userId && membership.mutate({ groupId: group.id, userId, add: true })}
              searchable
              w={260}
              size="xs"
            />
          )}
        </Stack>
      ))}
    </Stack>
  );
}
