import {
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  FileInput,
  Group,
  List,
  NumberInput,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { gql } from '../api/client';
import { errorMessage } from '../api/errors';
import { subscribe } from '../api/live';
import { uploadArchive } from '../api/upload';
import {
  AddSourceDocument,
  CancelSyncRunDocument,
  TroveApiError,
  RemoveSourceDocument,
  ResetWebhookVerificationDocument,
  SetSyncScheduleDocument,
  SourcesDocument,
  SourceTypesDocument,
  SyncRunsDocument,
  SyncRunUpdatesDocument,
  SyncSourceDocument,
  UpdateSourceDocument,
  WebhookVerificationTokenDocument,
  type SourcesQuery as SourcesResult,
  type SourceTypesQuery as SourceTypesResult,
  type SyncMode,
  type SyncRunsQuery as SyncRunsResult,
} from '@trove/api-client/browser';
import { useCaller } from '../caller';
import {
  configFromValues,
  formFields,
  initialValues,
  problemsByField,
  splitFields,
  type FormValues,
} from '../components/config-form';
import { formatDate, formatSeconds, plural, STATUS_COLORS } from '../components/format';
import { ResponsiveTable } from '../components/responsive-table';
import { SourceConfigFields } from '../components/source-config-fields';
import { sourceState } from '../components/source-state';
import { StatusBadge } from '../components/status-badge';
import { Empty, ErrorNotice, Loading } from '../components/states';
import { useProject } from './use-project';

type Source = SourcesResult['sources'][number];
type SourceTypeInfo = SourceTypesResult['sourceTypes'][number];
type Run = SyncRunsResult['syncRuns']['nodes'][number];

/** How often a running sync's progress is read when the subscription is not available. */
const LIVE_POLL_MS = 1000;
/** How often the cards are re-read while a source syncs, for the progress they show. */
const CARD_POLL_MS = 2000;
/** How often a project with a webhook source re-reads its sources, for the webhook panel. */
const WEBHOOK_POLL_MS = 10_000;

export function SourcesPage() {
  const { projectId, project } = useProject();
  const sources = useQuery({
    queryKey: ['sources', projectId],
    queryFn: () => gql(SourcesDocument, { projectId }),
    // A running sync's card follows its pages; a webhook panel follows what arrives.
    refetchInterval: (query) => {
      const list = query.state.data?.sources ?? [];
      if (list.some((s) => s.lastRun?.status === 'RUNNING')) return CARD_POLL_MS;
      return list.some((s) => s.webhook) ? WEBHOOK_POLL_MS : false;
    },
  });
  const [selected, setSelected] = useState<string>();
  const [adding, setAdding] = useState(false);
  const current = sources.data?.sources.find((s) => s.id === selected) ?? sources.data?.sources[0];
  // Adding, syncing, scheduling and removing sources need WRITE: a VIEWER key watches only.
  const canWrite = useCaller().can('WRITE');

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Sources{project ? ` · ${project.name}` : ''}</Title>
        {canWrite && !adding && <Button onClick={() => setAdding(true)}>Add source</Button>}
      </Group>
      {canWrite && adding && (
        <AddSource
          projectId={projectId}
          onAdded={(id) => {
            setSelected(id);
            setAdding(false);
          }}
          onClose={() => setAdding(false)}
        />
      )}
      {sources.isPending ? (
        <Loading label="Loading sources…" />
      ) : sources.isError ? (
        <ErrorNotice error={sources.error} />
      ) : sources.data.sources.length === 0 ? (
        adding ? null : (
          <Empty title="No sources yet">
            {canWrite
              ? 'Add a source: a folder on this server, a Git repository, a web site, a Notion workspace or an uploaded .zip.'
              : 'Nothing syncs into this project yet.'}
          </Empty>
        )
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {sources.data.sources.map((source) => (
              <SourceCard
                key={source.id}
                source={source}
                selected={current?.id === source.id}
                onSelect={() => setSelected(source.id)}
              />
            ))}
          </SimpleGrid>
          {current && <SourceDetail key={current.id} source={current} canWrite={canWrite} />}
        </>
      )}
    </Stack>
  );
}

/** The choice offered beside the API's source types: a zipped folder uploaded from this browser. */
const UPLOAD_ZIP = 'upload-zip';

/** "Add source": first the type (each with what it reads), then that type's form. */
function AddSource({
  projectId,
  onAdded,
  onClose,
}: {
  projectId: string;
  onAdded: (id: string) => void;
  onClose: () => void;
}) {
  const types = useSourceTypes();
  const [type, setType] = useState<string>();
  const info = types.data?.sourceTypes.find((t) => t.type === type);
  const title =
    type === UPLOAD_ZIP ? 'Upload a .zip folder' : info ? `Add a ${info.label} source` : 'Add a source';
  return (
    <Paper withBorder p="md" data-testid="add-source">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3}>{title}</Title>
          <Group gap="xs">
            {type && (
              <Button size="xs" variant="default" onClick={() => setType(undefined)}>
                Change type
              </Button>
            )}
            <Button size="xs" variant="subtle" onClick={onClose}>
              Cancel
            </Button>
          </Group>
        </Group>
        {types.isPending ? (
          <Loading label="Loading source types…" />
        ) : types.isError ? (
          <ErrorNotice error={types.error} />
        ) : type === UPLOAD_ZIP ? (
          <UploadFolder projectId={projectId} onAdded={onAdded} />
        ) : info ? (
          <AddTypedSource info={info} projectId={projectId} onAdded={onAdded} />
        ) : (
          <TypeChooser
            choices={[
              ...types.data.sourceTypes.map((t) => ({
                value: t.type,
                label: t.label,
                description: t.description,
              })),
              {
                value: UPLOAD_ZIP,
                label: 'Upload a .zip',
                description:
                  'A zipped folder (a MkDocs project or any files) from this computer; its first sync starts at once.',
              },
            ]}
            onChoose={setType}
          />
        )}
      </Stack>
    </Paper>
  );
}

/** One button per source type, named by its label and described by what it reads. */
function TypeChooser({
  choices,
  onChoose,
}: {
  choices: { value: string; label: string; description: string }[];
  onChoose: (value: string) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" role="group" aria-label="Source type">
      {choices.map((choice) => (
        <UnstyledButton
          key={choice.value}
          onClick={() => onChoose(choice.value)}
          aria-label={choice.label}
          aria-describedby={`source-type-${choice.value}`}
        >
          <Paper withBorder p="sm" h="100%">
            <Text fw={600}>{choice.label}</Text>
            <Text size="xs" c="dimmed" id={`source-type-${choice.value}`}>
              {choice.description}
            </Text>
          </Paper>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}

/** The types the API knows, with their configuration schemas (they change only with the API). */
function useSourceTypes() {
  return useQuery({
    queryKey: ['sourceTypes'],
    queryFn: () => gql(SourceTypesDocument),
    staleTime: Infinity,
  });
}

/** A source of the chosen type: its form is built from the type's schema. */
function AddTypedSource({
  info,
  projectId,
  onAdded,
}: {
  info: SourceTypeInfo;
  projectId: string;
  onAdded: (id: string) => void;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {info.description}
      </Text>
      <SourceForm info={info} projectId={projectId} onAdded={onAdded} />
    </Stack>
  );
}

/**
 * The required fields first, the optional ones under "Advanced" (opened by itself when one of
 * them is refused); the API's field errors show beside each field.
 */
function SourceForm({
  info,
  projectId,
  onAdded,
}: {
  info: SourceTypeInfo;
  projectId: string;
  onAdded: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const fields = formFields(info.configSchema, info.secretFields);
  const { basic, advanced } = splitFields(fields);
  const [name, setName] = useState('');
  const [values, setValues] = useState<FormValues>(() => initialValues(fields));
  const [ownProblems, setOwnProblems] = useState<Record<string, string>>({});
  const [showAdvanced, setShowAdvanced] = useState(false);
  const add = useMutation({
    mutationFn: (config: Record<string, unknown>) =>
      gql(AddSourceDocument, { input: { projectId, type: info.type, name, config } }),
    onSuccess: async (data) => {
      setName('');
      setValues(initialValues(fields));
      await queryClient.invalidateQueries({ queryKey: ['sources', projectId] });
      onAdded(data.addSource.id);
    },
  });
  const errors = {
    ...(add.error instanceof TroveApiError ? problemsByField(add.error.problems, fields) : {}),
    ...ownProblems,
  };
  const advancedOpen = showAdvanced || advanced.some((field) => errors[field.name]);
  const change = (field: string, value: string | number | boolean) =>
    setValues((old) => ({ ...old, [field]: value }));
  function submit(event: FormEvent) {
    event.preventDefault();
    const { config, problems } = configFromValues(fields, values);
    setOwnProblems(problems);
    if (Object.keys(problems).length === 0) add.mutate(config);
  }
  return (
    <form onSubmit={submit} noValidate aria-label={`Add a ${info.label} source`}>
      <Stack gap="xs">
        <TextInput
          label="Name"
          description="How this source is shown in Trove"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          withAsterisk
          w={{ base: '100%', sm: 320 }}
        />
        <SourceConfigFields fields={basic} values={values} onChange={change} errors={errors} />
        {advanced.length > 0 && (
          <div>
            <Button
              variant="subtle"
              size="compact-sm"
              px={0}
              onClick={() => setShowAdvanced(!advancedOpen)}
              aria-expanded={advancedOpen}
            >
              {advancedOpen ? 'Hide advanced settings' : `Advanced (${plural(advanced.length, 'setting')})`}
            </Button>
            {advancedOpen && (
              <Paper withBorder p="sm" mt={4} data-testid="advanced-settings">
                <SourceConfigFields fields={advanced} values={values} onChange={change} errors={errors} />
              </Paper>
            )}
          </div>
        )}
        {errors[''] && (
          <Text size="sm" c="red">
            {errors['']}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={add.isPending} disabled={!name.trim()}>
            Add source
          </Button>
        </Group>
        {add.isError && <ErrorNotice error={add.error} title="The source was not added" />}
      </Stack>
    </form>
  );
}

/** A zipped folder (MkDocs project or files) becomes a folder source; its first sync starts at once. */
function UploadFolder({ projectId, onAdded }: { projectId: string; onAdded: (id: string) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const upload = useMutation({
    mutationFn: () => uploadArchive(projectId, file!, name, setProgress),
    onSuccess: async (data) => {
      setName('');
      setFile(null);
      await queryClient.invalidateQueries({ queryKey: ['sources', projectId] });
      onAdded(data.source.id);
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setProgress(0);
    upload.mutate();
  }
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <Group align="end" wrap="wrap">
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            style={{ flex: '1 1 160px' }}
          />
          <FileInput
            label="Folder as .zip"
            placeholder="handbook.zip"
            accept=".zip,application/zip"
            value={file}
            onChange={setFile}
            required
            style={{ flex: '3 1 260px' }}
          />
          <Button type="submit" loading={upload.isPending} disabled={!name.trim() || !file}>
            Upload and sync
          </Button>
        </Group>
        {upload.isPending && (
          <Progress value={progress * 100} size="sm" aria-label="Archive upload progress" />
        )}
        {upload.isError && <ErrorNotice error={upload.error} title="The folder was not uploaded" />}
      </Stack>
    </form>
  );
}

/**
 * A source at a glance: the outcome of its last sync before its record's status (FAILING with
 * why and what to do, STALLED, RUNNING with its pages), its documents and its last success.
 */
function SourceCard({
  source,
  selected,
  onSelect,
}: {
  source: Source;
  selected: boolean;
  onSelect: () => void;
}) {
  const state = sourceState(source);
  const progress = state.progress;
  return (
    <Card
      withBorder
      padding="sm"
      onClick={onSelect}
      style={{ cursor: 'pointer', borderColor: selected ? 'var(--mantine-color-indigo-5)' : undefined }}
      data-testid="source-card"
    >
      <Group justify="space-between" wrap="wrap" gap={4}>
        <Text fw={600} truncate maw="100%">
          {source.name}
        </Text>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          <Badge variant="outline" miw="max-content" data-testid="source-type">
            {source.type}
          </Badge>
          <StatusBadge status={state.label} color={state.color} data-testid="source-state" />
        </Group>
      </Group>
      <Text size="xs" c="dimmed" truncate mt={4}>
        {source.summary}
        {source.tokenHint ? ` · token ${source.tokenHint}` : ''}
      </Text>
      {progress && (
        <Stack gap={2} mt={4}>
          <Text size="xs" data-testid="source-progress">
            {progress.planned !== undefined
              ? `${progress.done} / ${progress.planned} pages`
              : `${progress.stage ?? 'PLANNING'}: counting the pages to sync…`}
            {progress.etaSeconds !== undefined ? ` · about ${formatSeconds(progress.etaSeconds)} left` : ''}
          </Text>
          <Progress
            size="xs"
            value={progress.planned ? Math.min(100, (progress.done / progress.planned) * 100) : 0}
            color={state.color}
            aria-label={`${source.name} sync progress`}
          />
        </Stack>
      )}
      {state.reason && (
        <Text size="xs" c={state.color} mt={4} lineClamp={2} data-testid="source-reason">
          {state.reason}
        </Text>
      )}
      {state.hint && (
        <Text size="xs" data-testid="source-hint">
          {state.hint}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={4} data-testid="source-facts">
        {plural(source.documentCount, 'document')} · last success{' '}
        {source.lastSyncAt ? formatDate(source.lastSyncAt) : 'never'}
        {source.syncIntervalMinutes ? ` · every ${source.syncIntervalMinutes} min` : ''}
      </Text>
    </Card>
  );
}

function SourceDetail({ source, canWrite }: { source: Source; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  // Live progress arrives by subscription (graphql-ws); if that fails, the runs are read every second.
  const [live, setLive] = useState<'subscribed' | 'polling'>('subscribed');
  const runs = useQuery({
    queryKey: ['syncRuns', source.id],
    queryFn: () => gql(SyncRunsDocument, { sourceId: source.id, first: 20 }),
    refetchInterval: (query) =>
      live === 'polling' && query.state.data?.syncRuns.nodes.some((run) => run.status === 'RUNNING')
        ? LIVE_POLL_MS
        : false,
  });
  const sync = useMutation({
    mutationFn: (mode: SyncMode) => gql(SyncSourceDocument, { id: source.id, mode }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['syncRuns', source.id] }),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => gql(CancelSyncRunDocument, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['syncRuns', source.id] }),
  });
  const remove = useMutation({
    mutationFn: () => gql(RemoveSourceDocument, { id: source.id }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['sources', source.projectId] });
      void queryClient.invalidateQueries({ queryKey: ['documents', source.projectId] });
    },
  });
  const running = runs.data?.syncRuns.nodes.find((run) => run.status === 'RUNNING');
  const latest = running ?? runs.data?.syncRuns.nodes[0];
  const runningId = running?.id;
  const runningKey = source.id;
  useEffect(() => {
    if (!runningId || live === 'polling') return;
    return subscribe(
      SyncRunUpdatesDocument,
      { id: runningId },
      ({ syncRunUpdates: update }) =>
        queryClient.setQueryData<SyncRunsResult>(['syncRuns', runningKey], (old) =>
          old
            ? {
                syncRuns: {
                  ...old.syncRuns,
                  nodes: old.syncRuns.nodes.map((run) => (run.id === update.id ? update : run)),
                },
              }
            : old,
        ),
      (failed) => {
        if (failed) setLive('polling');
        else void queryClient.invalidateQueries({ queryKey: ['syncRuns', runningKey] });
      },
    );
  }, [runningId, runningKey, live, queryClient]);
  // A run that starts or ends changes the source's card (its state, last success) and the project's documents.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: ['sources', source.projectId] });
    void queryClient.invalidateQueries({ queryKey: ['documents', source.projectId] });
    void queryClient.invalidateQueries({ queryKey: ['projects'] });
  }, [runningId, queryClient, source.projectId]);

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={3}>{source.name}</Title>
          {canWrite && (
            <Group gap="xs">
              <Button
                size="xs"
                onClick={() => sync.mutate('INCREMENTAL')}
                loading={sync.isPending && sync.variables === 'INCREMENTAL'}
                disabled={!!running}
              >
                Sync (incremental)
              </Button>
              <Button
                size="xs"
                variant="light"
                onClick={() => sync.mutate('FULL')}
                loading={sync.isPending && sync.variables === 'FULL'}
                disabled={!!running}
                title="Re-reads every item; re-ingests only those whose content changed"
              >
                Full sync
              </Button>
              <Button
                size="xs"
                variant="light"
                color="grape"
                onClick={() => {
                  if (
                    window.confirm(
                      `Rebuild ${source.name}? Every item is read, ingested and embedded again, even if unchanged: slower than a full sync.`,
                    )
                  )
                    sync.mutate('REBUILD');
                }}
                loading={sync.isPending && sync.variables === 'REBUILD'}
                disabled={!!running}
                title="Re-ingests and re-embeds every item, changed or not"
              >
                Rebuild
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing((open) => !open)}>
                {editing ? 'Close settings' : 'Edit settings'}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                loading={remove.isPending}
                onClick={() => {
                  if (window.confirm(`Remove ${source.name} and every document it produced?`))
                    remove.mutate();
                }}
              >
                Remove
              </Button>
            </Group>
          )}
        </Group>
        {canWrite && (
          <Text size="xs" c="dimmed" data-testid="sync-modes-help">
            Incremental reads what changed since the last sync. Full sync re-reads every item and re-ingests
            only those whose content changed (unchanged ones are counted, not redone). Rebuild re-ingests and
            re-embeds every item.
          </Text>
        )}
        {sync.isError && <ErrorNotice error={sync.error} title="The sync did not start" />}
        {cancel.isError && <ErrorNotice error={cancel.error} title="The sync was not cancelled" />}
        {canWrite ? (
          <Schedule source={source} />
        ) : (
          <Text size="sm" c="dimmed">
            {source.syncIntervalMinutes
              ? `Synced every ${source.syncIntervalMinutes} minutes`
              : 'No sync schedule'}
          </Text>
        )}
        {remove.isError && <ErrorNotice error={remove.error} title="The source was not removed" />}
        {runs.isPending ? (
          <Loading label="Loading sync runs…" />
        ) : runs.isError ? (
          <ErrorNotice error={runs.error} />
        ) : (
          <>
            {latest ? (
              <RunProgress
                run={latest}
                cancelling={cancel.isPending}
                onCancel={
                  canWrite && latest.status === 'RUNNING'
                    ? () => {
                        if (
                          window.confirm(
                            'Cancel this sync? What it ingested so far stays; the next sync does the rest.',
                          )
                        )
                          cancel.mutate(latest.id);
                      }
                    : undefined
                }
              />
            ) : (
              <Empty title="Never synced">
                {canWrite ? 'Start a sync to index this source.' : undefined}
              </Empty>
            )}
            {runs.data.syncRuns.nodes.length > 0 && <RunHistory runs={runs.data.syncRuns.nodes} />}
          </>
        )}
        {canWrite && editing && <EditSource source={source} onDone={() => setEditing(false)} />}
        {source.webhook && <WebhookPanel source={source} canWrite={canWrite} />}
      </Stack>
    </Paper>
  );
}

/**
 * A source's name and configuration, changed through updateSource: the form is its type's,
 * filled with what is stored; a secret left blank stays as it is.
 */
function EditSource({ source, onDone }: { source: Source; onDone: () => void }) {
  const queryClient = useQueryClient();
  const types = useSourceTypes();
  const info = types.data?.sourceTypes.find((t) => t.type === source.type);
  const fields = info ? formFields(info.configSchema, info.secretFields) : [];
  const stored = (source.config ?? {}) as Record<string, unknown>;
  const [name, setName] = useState(source.name);
  const [values, setValues] = useState<FormValues>();
  const [ownProblems, setOwnProblems] = useState<Record<string, string>>({});
  const current = values ?? initialValues(fields, stored);
  const save = useMutation({
    mutationFn: (config: Record<string, unknown>) =>
      gql(UpdateSourceDocument, { id: source.id, input: { name, config } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['sources', source.projectId] });
      onDone();
    },
  });
  if (types.isPending) return <Loading label="Loading the form…" />;
  if (types.isError) return <ErrorNotice error={types.error} />;
  if (!info) return <Empty title={`The API no longer knows the type ${source.type}`} />;
  const errors = {
    ...(save.error instanceof TroveApiError ? problemsByField(save.error.problems, fields) : {}),
    ...ownProblems,
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    const { config, problems } = configFromValues(fields, current, true);
    setOwnProblems(problems);
    if (Object.keys(problems).length === 0) save.mutate(config);
  }
  return (
    <Paper withBorder p="sm">
      <form onSubmit={submit} noValidate aria-label="Source settings">
        <Stack gap="xs">
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            w={{ base: '100%', sm: 320 }}
          />
          <SourceConfigFields
            fields={fields}
            values={current}
            onChange={(field, value) => setValues({ ...current, [field]: value })}
            errors={errors}
            secretHints={Object.fromEntries(source.secrets.map((secret) => [secret.field, secret.hint]))}
          />
          <Group>
            <Button type="submit" size="xs" loading={save.isPending} disabled={!name.trim()}>
              Save settings
            </Button>
            <Text size="xs" c="dimmed">
              Takes effect at the next sync.
            </Text>
          </Group>
          {save.isError && <ErrorNotice error={save.error} title="The settings were not saved" />}
        </Stack>
      </form>
    </Paper>
  );
}

/** An INCREMENTAL sync every N minutes (a Temporal schedule); 0 removes it. */
function Schedule({ source }: { source: Source }) {
  const queryClient = useQueryClient();
  const [minutes, setMinutes] = useState<number>(source.syncIntervalMinutes ?? 0);
  const save = useMutation({
    mutationFn: () => gql(SetSyncScheduleDocument, { sourceId: source.id, intervalMinutes: minutes }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sources', source.projectId] }),
  });
  return (
    <Stack gap={4}>
      <Group align="end" gap="xs">
        <NumberInput
          label="Sync every (minutes, 0 = off)"
          min={0}
          value={minutes}
          onChange={(value) => setMinutes(typeof value === 'number' ? value : 0)}
          w={200}
          size="xs"
        />
        <Button
          size="xs"
          variant="default"
          loading={save.isPending}
          disabled={minutes === (source.syncIntervalMinutes ?? 0)}
          onClick={() => save.mutate()}
        >
          Save schedule
        </Button>
      </Group>
      {save.isError && <ErrorNotice error={save.error} title="The schedule was not saved" />}
    </Stack>
  );
}

/** The running (or last) sync: what it has seen, ingested, reused and skipped, and why. */
function RunProgress({
  run,
  onCancel,
  cancelling,
}: {
  run: Run;
  /** Offered while the run runs, to those who may cancel it (asks for confirmation itself). */
  onCancel?: () => void;
  cancelling?: boolean;
}) {
  const p = run.progress;
  const planned = p.pagesPlanned !== null && p.pagesPlanned !== undefined;
  const planning = run.status === 'RUNNING' && !planned;
  const done = p.pagesIngested + p.pagesUnchanged + p.pagesSkipped + p.pagesFailed + p.pagesDeleted;
  // Once planned, the pages to ingest are the whole: the bar follows them, not what discovery saw.
  const fraction =
    p.pagesPlanned !== null && p.pagesPlanned !== undefined && run.status === 'RUNNING'
      ? p.pagesPlanned > 0
        ? Math.min(1, p.pagesDone / p.pagesPlanned)
        : 0
      : p.pagesSeen > 0
        ? Math.min(1, done / p.pagesSeen)
        : 0;
  const stats: [string, number][] = [
    ['seen', p.pagesSeen],
    ['ingested', p.pagesIngested],
    ['unchanged', p.pagesUnchanged],
    ['deleted', p.pagesDeleted],
    ['skipped', p.pagesSkipped],
    ['failed', p.pagesFailed],
    ['chunks embedded', p.chunksEmbedded],
    ['chunks reused', p.chunksReused],
  ];
  return (
    <Stack gap="xs" data-testid="sync-progress">
      <Group gap="xs">
        <Text fw={600}>{run.status === 'RUNNING' ? 'Sync running' : 'Last sync'}</Text>
        <StatusBadge status={run.status} data-testid="sync-status" />
        {run.status === 'RUNNING' && run.health.state === 'STALLED' && (
          <StatusBadge status="STALLED" data-testid="sync-stalled" />
        )}
        <Badge variant="outline">{run.mode}</Badge>
        {run.status === 'RUNNING' && run.stage && (
          <Badge variant="dot" data-testid="sync-stage">
            {run.stage}
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          started {formatDate(run.startedAt)}
          {run.finishedAt ? ` · finished ${formatDate(run.finishedAt)}` : ''}
        </Text>
        {onCancel && (
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            onClick={onCancel}
            loading={cancelling}
            data-testid="sync-cancel"
          >
            Cancel sync
          </Button>
        )}
      </Group>
      {run.status === 'RUNNING' && run.health.state === 'STALLED' && (
        <Text size="sm" c="orange" data-testid="sync-stall-reason">
          No progress since {formatDate(run.health.since)}: {run.health.message}
        </Text>
      )}
      {planning && (
        <Text size="sm" data-testid="sync-pace">
          Planning: {p.pagesSeen} {p.pagesSeen === 1 ? 'item' : 'items'} found so far
        </Text>
      )}
      {run.status === 'RUNNING' && planned && (
        <Text size="sm" data-testid="sync-pace">
          {p.pagesDone} / {p.pagesPlanned} pages ·{' '}
          {run.pagesPerSecond !== null && run.pagesPerSecond !== undefined
            ? `${run.pagesPerSecond} pages/s (last minute)`
            : 'rate not known yet'}
          {run.etaSeconds !== null && run.etaSeconds !== undefined
            ? ` · about ${formatSeconds(run.etaSeconds)} left`
            : ''}
        </Text>
      )}
      <Progress
        // While planning the total is not known yet: a moving bar says it is working.
        value={run.status === 'COMPLETED' || planning ? 100 : fraction * 100}
        striped={planning}
        animated={run.status === 'RUNNING'}
        color={STATUS_COLORS[run.status]}
        aria-label="Sync progress"
      />
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
        {stats.map(([label, value]) => (
          <Paper key={label} withBorder p={6}>
            <Text size="lg" fw={700} data-testid={`progress-${label.replace(' ', '-')}`}>
              {value}
            </Text>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {run.error && (
        // A cancelled run says who stopped it: a note, not a failure.
        <Text size="sm" c={run.status === 'CANCELLED' ? 'dimmed' : 'red'}>
          {run.error.code}: {run.error.message}
        </Text>
      )}
      {run.warnings?.map((warning) => (
        <Text key={warning} size="sm" c="orange">
          {warning}
        </Text>
      ))}
      {run.skipped.length > 0 && (
        <div>
          <Text size="sm" fw={600}>
            Skipped
          </Text>
          {run.skipped.map((item) => (
            <Text key={item.id} size="xs" data-testid="sync-skipped-item">
              {item.title ? (
                <>
                  <strong>{item.title}</strong> <Code>{item.id}</Code>
                </>
              ) : (
                <Code>{item.id}</Code>
              )}{' '}
              {item.reason}
            </Text>
          ))}
        </div>
      )}
    </Stack>
  );
}

function RunHistory({ runs }: { runs: Run[] }) {
  const note = (run: Run) => run.error?.message ?? '';
  return (
    <div>
      <Text fw={600} mb={4}>
        Run history
      </Text>
      <ResponsiveTable
        label="Sync runs"
        rows={runs}
        rowKey={(run) => run.id}
        minWidth={520}
        testId="sync-run"
        tableProps={{ fz: 'sm', verticalSpacing: 4 }}
        columns={[
          { header: 'Started', cell: (run) => formatDate(run.startedAt) },
          { header: 'Mode', cell: (run) => run.mode },
          { header: 'Status', cell: (run) => <StatusBadge status={run.status} size="sm" /> },
          { header: 'Ingested', align: 'right', cell: (run) => run.progress.pagesIngested },
          { header: 'Unchanged', align: 'right', cell: (run) => run.progress.pagesUnchanged },
          { header: 'Failed', align: 'right', cell: (run) => run.progress.pagesFailed },
          {
            header: 'Note',
            cell: (run) => (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {note(run)}
              </Text>
            ),
          },
        ]}
        card={(run) => (
          <>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600}>
                {formatDate(run.startedAt)} · {run.mode}
              </Text>
              <StatusBadge status={run.status} size="sm" />
            </Group>
            <Text size="xs" c="dimmed">
              {run.progress.pagesIngested} ingested · {run.progress.pagesUnchanged} unchanged ·{' '}
              {run.progress.pagesFailed} failed
            </Text>
            {note(run) && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {note(run)}
              </Text>
            )}
          </>
        )}
      />
    </div>
  );
}

/**
 * Where the sender posts a source's events and what to set up there, as its type's definition
 * says (the verification token to paste back, for types with a handshake, to WRITE keys only),
 * and what has arrived: the last event accepted and the deliveries refused.
 */
function WebhookPanel({ source, canWrite }: { source: Source; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const types = useSourceTypes();
  const setup = types.data?.sourceTypes.find((t) => t.type === source.type)?.webhookSetup;
  const url = setup ? `${window.location.origin}${setup.path.replace('{sourceId}', source.id)}` : '';
  const handshake = canWrite && setup?.verificationHandshake === true;
  const token = useQuery({
    queryKey: ['webhookToken', source.id],
    queryFn: () => gql(WebhookVerificationTokenDocument, { sourceId: source.id }),
    enabled: handshake,
  });
  const reset = useMutation({
    mutationFn: () => gql(ResetWebhookVerificationDocument, { sourceId: source.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhookToken', source.id] }),
  });
  if (types.isPending) return <Loading label="Loading the webhook setup…" />;
  if (types.isError) return <ErrorNotice error={types.error} />;
  if (!setup) return null;
  const deliveries = source.webhook;
  const rejected = deliveries?.rejectedDeliveries ?? 0;
  return (
    <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)" data-testid="webhook-panel">
      <Text fw={600}>Webhook</Text>
      <Text size="xs" c="dimmed" data-testid="webhook-instructions">
        {setup.instructions}
      </Text>
      <Group gap="xs" mt="xs" wrap="nowrap">
        <Code style={{ overflowWrap: 'anywhere' }}>{url}</Code>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {canWrite && (
        <List size="xs" type="ordered" mt="xs" data-testid="webhook-steps">
          {setup.steps.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
      )}
      {handshake && (
        <Text size="sm" mt="xs">
          Verification token:{' '}
          {token.isPending ? (
            '…'
          ) : token.isError ? (
            <Text span c="red">
              {errorMessage(token.error)}
            </Text>
          ) : token.data.webhookVerificationToken ? (
            <Code>{token.data.webhookVerificationToken}</Code>
          ) : (
            'not received yet'
          )}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
        <Paper withBorder p={6}>
          <Text size="sm" fw={600} data-testid="webhook-last-event">
            {deliveries?.lastEventAt ? formatDate(deliveries.lastEventAt) : 'none yet'}
          </Text>
          <Text size="xs" c="dimmed">
            last event{deliveries?.lastEventType ? ` · ${deliveries.lastEventType}` : ''}
          </Text>
        </Paper>
        <Paper withBorder p={6}>
          <Text size="sm" fw={600} c={rejected > 0 ? 'orange' : undefined} data-testid="webhook-rejected">
            {rejected}
          </Text>
          <Text size="xs" c="dimmed">
            rejected deliveries (bad signature, stale, malformed)
          </Text>
        </Paper>
      </SimpleGrid>
      {handshake && (
        <Group mt="xs">
          <Button size="compact-xs" variant="subtle" loading={reset.isPending} onClick={() => reset.mutate()}>
            Accept a new subscription
          </Button>
          {reset.isSuccess && (
            <Text size="xs" c="dimmed">
              Send the verification request again within the hour.
            </Text>
          )}
          {reset.isError && (
            <Text size="xs" c="red">
              {errorMessage(reset.error)}
            </Text>
          )}
        </Group>
      )}
    </Paper>
  );
}
