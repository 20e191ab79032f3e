import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { gql } from '../api/client';
import {
  ApiKeysDocument,
  CreateApiKeyDocument,
  ProjectsDocument,
  RevokeApiKeyDocument,
  type ApiKeyRole,
  type ApiKeysQuery as ApiKeysResult,
} from '@trove/api-client/browser';
import { formatDate } from '../components/format';
import { ResponsiveTable } from '../components/responsive-table';
import { Empty, ErrorNotice, Loading } from '../components/states';

type ApiKey = ApiKeysResult['apiKeys'][number];

const ROLES: { value: ApiKeyRole; label: string; description: string }[] = [
  { value: 'VIEWER', label: 'Viewer', description: 'search and read its projects' },
  { value: 'EDITOR', label: 'Editor', description: 'also upload, sync and change sources' },
  { value: 'ADMIN', label: 'Admin', description: 'everything, every project, keys' },
];

/** Descriptions under the inputs, so the three inputs line up whatever their descriptions' length. */
const BELOW: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

const ROLE_COLORS: Record<ApiKeyRole, string> = { ADMIN: 'grape', EDITOR: 'blue', VIEWER: 'gray' };

/** API keys (admin only): create one per person or program, see when each was last used, revoke. */
export function ApiKeysPage() {
  const keys = useQuery({ queryKey: ['apiKeys'], queryFn: () => gql(ApiKeysDocument) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => gql(ProjectsDocument) });
  const projectNames = new Map(projects.data?.projects.map((p) => [p.id, p.name]));
  const [revoking, setRevoking] = useState<ApiKey>();
  const revokeButton = (key: ApiKey) =>
    !key.revokedAt && (
      <Button size="compact-sm" color="red" variant="subtle" onClick={() => setRevoking(key)}>
        Revoke
      </Button>
    );
  const scope = (key: ApiKey) =>
    key.projectIds === null || key.projectIds === undefined
      ? 'All projects'
      : key.projectIds.map((id) => projectNames.get(id) ?? `${id.slice(0, 8)}… (deleted)`).join(', ');

  return (
    <Stack>
      <Title order={2}>API keys</Title>
      <CreateKey projects={projects.data?.projects ?? []} />
      {keys.isPending ? (
        <Loading label="Loading API keys…" />
      ) : keys.isError ? (
        <ErrorNotice error={keys.error} />
      ) : keys.data.apiKeys.length === 0 ? (
        <Empty title="No API keys yet">
          Only the admin key from the configuration exists. Create a key per person or program above.
        </Empty>
      ) : (
        <ResponsiveTable
          label="API keys"
          rows={keys.data.apiKeys}
          rowKey={(key) => key.id}
          minWidth={900}
          testId="api-key"
          tableProps={{ verticalSpacing: 'xs', fz: 'sm' }}
          columns={[
            { header: 'Name', cell: (key) => <Text fw={600}>{key.name}</Text> },
            { header: 'Key', cell: (key) => <Code>{key.prefix}</Code> },
            { header: 'Role', cell: (key) => <RoleBadge role={key.role} /> },
            { header: 'Projects', maxWidth: 220, cell: (key) => scope(key) },
            {
              header: 'Created',
              cell: (key) => (
                <>
                  {formatDate(key.createdAt)}
                  <Text size="xs" c="dimmed">
                    by {key.createdBy}
                  </Text>
                </>
              ),
            },
            { header: 'Last used', cell: (key) => (key.lastUsedAt ? formatDate(key.lastUsedAt) : 'never') },
            { header: 'State', cell: (key) => <KeyState apiKey={key} withDate /> },
            { header: '', align: 'right', cell: (key) => revokeButton(key) },
          ]}
          card={(key) => (
            <>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600} truncate>
                  {key.name}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <RoleBadge role={key.role} />
                  <KeyState apiKey={key} />
                </Group>
              </Group>
              <Code mt={4} style={{ overflowWrap: 'anywhere' }}>
                {key.prefix}
              </Code>
              <Text size="xs" c="dimmed" mt={4}>
                {scope(key)}
              </Text>
              <Text size="xs" c="dimmed">
                created {formatDate(key.createdAt)} by {key.createdBy} · last used{' '}
                {key.lastUsedAt ? formatDate(key.lastUsedAt) : 'never'}
                {key.revokedAt ? ` · revoked ${formatDate(key.revokedAt)}` : ''}
              </Text>
              {!key.revokedAt && (
                <Group justify="flex-end" mt={4}>
                  {revokeButton(key)}
                </Group>
              )}
            </>
          )}
        />
      )}
      <RevokeKey apiKey={revoking} onClose={() => setRevoking(undefined)} />
    </Stack>
  );
}

function RoleBadge({ role }: { role: ApiKeyRole }) {
  return (
    <Badge color={ROLE_COLORS[role]} variant="light" miw="max-content">
      {role}
    </Badge>
  );
}

function KeyState({ apiKey, withDate = false }: { apiKey: ApiKey; withDate?: boolean }) {
  return apiKey.revokedAt ? (
    <>
      <Badge color="red" variant="light" miw="max-content" title={`revoked ${formatDate(apiKey.revokedAt)}`}>
        REVOKED
      </Badge>
      {withDate && (
        <Text size="xs" c="dimmed">
          {formatDate(apiKey.revokedAt)}
        </Text>
      )}
    </>
  ) : (
    <Badge color="green" variant="light" miw="max-content">
      ACTIVE
    </Badge>
  );
}

function CreateKey({ projects }: { projects: { id: string; name: string }[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<ApiKeyRole>('VIEWER');
  const [projectIds, setProjectIds] = useState<string[]>([]);
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const create = useMutation({
    mutationFn: () =>
      gql(CreateApiKeyDocument, {
        // No projects chosen: every project (and an ADMIN key always reaches every project).
        input: { name, role, projectIds: role === 'ADMIN' || projectIds.length === 0 ? null : projectIds },
      }),
    onSuccess: async (data) => {
      setCreated({ name: data.createApiKey.apiKey.name, secret: data.createApiKey.secret });
      setName('');
      setProjectIds([]);
      await queryClient.invalidateQueries({ queryKey: ['apiKeys'] });
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }
  return (
    <>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Group align="start" wrap="wrap">
            <TextInput
              label="Key name"
              description="Who or what uses it"
              placeholder="docs bot"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={200}
              required
              inputWrapperOrder={BELOW}
              style={{ flex: '1 1 180px' }}
            />
            <Select
              label="Role"
              description={ROLES.find((r) => r.value === role)?.description}
              data={ROLES.map((r) => ({ value: r.value, label: r.label }))}
              value={role}
              onChange={(value) => value && setRole(value as ApiKeyRole)}
              allowDeselect={false}
              inputWrapperOrder={BELOW}
              style={{ flex: '1 1 160px' }}
            />
            <MultiSelect
              label="Projects"
              description={
                role === 'ADMIN' ? 'An admin key reaches every project' : 'None chosen: every project'
              }
              placeholder={projectIds.length ? undefined : 'Every project'}
              data={projects.map((p) => ({ value: p.id, label: p.name }))}
              value={role === 'ADMIN' ? [] : projectIds}
              onChange={setProjectIds}
              disabled={role === 'ADMIN'}
              searchable
              clearable
              inputWrapperOrder={BELOW}
              style={{ flex: '2 1 240px' }}
            />
          </Group>
          <Group>
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create key
            </Button>
          </Group>
          {create.isError && <ErrorNotice error={create.error} title="The key was not created" />}
        </Stack>
      </form>
      <SecretOnce created={created} onClose={() => setCreated(undefined)} />
    </>
  );
}

/** The secret exists in this answer only: the modal says so, and closing it forgets the secret. */
function SecretOnce({
  created,
  onClose,
}: {
  created?: { name: string; secret: string };
  onClose: () => void;
}) {
  return (
    <Modal
      opened={created !== undefined}
      onClose={onClose}
      title="API key created"
      centered
      closeOnClickOutside={false}
    >
      {created && (
        <Stack>
          <Alert color="orange" variant="light" title="Copy it now: you will not see it again">
            Trove keeps only a hash of <b>{created.name}</b>&apos;s secret. Store it where its user will find
            it; if it is lost, revoke the key and create another.
          </Alert>
          <Code
            block
            data-testid="api-key-secret"
            style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
          >
            {created.secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>I have stored it</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function RevokeKey({ apiKey, onClose }: { apiKey?: ApiKey; onClose: () => void }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: string) => gql(RevokeApiKeyDocument, { id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['apiKeys'] });
      close();
    },
  });
  function close() {
    revoke.reset();
    onClose();
  }
  return (
    <Modal opened={apiKey !== undefined} onClose={close} title="Revoke API key" centered>
      {apiKey && (
        <Stack>
          <Text size="sm">
            Revoke <b>{apiKey.name}</b> (<Code>{apiKey.prefix}</Code>)? Every request made with it is refused
            from now on, and its open subscriptions end. This cannot be undone.
          </Text>
          {revoke.isError && <ErrorNotice error={revoke.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate(apiKey.id)}>
              Revoke key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
