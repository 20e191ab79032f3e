import {
  Badge,
  Button,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  type ApiKeyRole,
  GrantProjectRoleDocument,
  ProjectAccessDocument,
  RevokeProjectRoleDocument,
} from '@trove/api-client/browser';
import { gql } from '../api/client';
import { formatDate } from '../components/format';
import { Empty, ErrorNotice, Loading } from '../components/states';
import { useProject } from './use-project';

const ROLES: ApiKeyRole[] = ['VIEWER', 'EDITOR', 'ADMIN'];

/** Who may do what in the project: roles given to people and to groups (the project's ADMINs). */
export function ProjectAccessPage() {
  const { projectId, project } = useProject();
  const queryClient = useQueryClient();
  const grants = useQuery({
    queryKey: ['projectAccess', projectId],
    queryFn: () => gql(ProjectAccessDocument, { projectId }),
  });
  const [kind, setKind] = useState<'person' | 'group'>('group');
  const [who, setWho] = useState('');
  const [provider, setProvider] = useState('');
  const [role, setRole] = useState<ApiKeyRole>('VIEWER');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['projectAccess', projectId] });
  const grant = useMutation({
    mutationFn: () =>
      gql(GrantProjectRoleDocument, {
        input:
          kind === 'person'
            ? { projectId, email: who.trim(), role }
            : { projectId, groupName: who.trim(), groupProvider: provider.trim(), role },
      }),
    onSuccess: () => {
      setWho('');
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (input: { userId?: string; groupId?: string }) =>
      gql(RevokeProjectRoleDocument, { input: { projectId, ...input } }),
    onSuccess: refresh,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    grant.mutate();
  }

  return (
    <Stack>
      <Title order={2}>Access{project ? ` · ${project.name}` : ''}</Title>
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="wrap">
          <SegmentedControl
            value={kind}
            onChange={(value) => setKind(value as 'person' | 'group')}
            data={[
              { value: 'group', label: 'A group' },
              { value: 'person', label: 'A person' },
            ]}
          />
          <TextInput
            label={kind === 'person' ? 'Email' : 'Group name (from the groups claim)'}
            value={who}
            onChange={(e) => setWho(e.currentTarget.value)}
            required
          />
          {kind === 'group' && (
            <TextInput
              label="Provider"
              placeholder="e.g. keycloak"
              value={provider}
              onChange={(e) => setProvider(e.currentTarget.value)}
              required
            />
          )}
          <Select
            label="Role"
            data={ROLES}
            value={role}
            onChange={(value) => value && setRole(value as ApiKeyRole)}
            allowDeselect={false}
            w={130}
          />
          <Button type="submit" loading={grant.isPending}>
            Give role
          </Button>
        </Group>
      </form>
      {grant.error && <ErrorNotice error={grant.error} />}
      {grants.isPending ? (
        <Loading />
      ) : grants.error ? (
        <ErrorNotice error={grants.error} />
      ) : grants.data.projectAccess.length === 0 ? (
        <Empty title="No roles given in this project yet">
          People reach it through an install-wide role only.
        </Empty>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Who</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Given by</Table.Th>
              <Table.Th>Since</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grants.data.projectAccess.map((grant) => (
              <Table.Tr key={grant.id}>
                <Table.Td>
                  {grant.user ? (
                    <Text size="sm">
                      {grant.user.name}{' '}
                      <Text span c="dimmed">
                        {grant.user.email}
                      </Text>
                    </Text>
                  ) : (
                    <Text size="sm">
                      group {grant.group?.name}{' '}
                      <Badge size="xs" variant="light">
                        {grant.group?.provider ?? 'local'}
                      </Badge>
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{grant.role}</Table.Td>
                <Table.Td>{grant.createdBy}</Table.Td>
                <Table.Td>{formatDate(grant.createdAt)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() =>
                      revoke.mutate(grant.user ? { userId: grant.user.id } : { groupId: grant.group!.id })
                    }
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
