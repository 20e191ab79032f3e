import { Box, Button, Drawer, Grid, Group, Kbd, Stack, Text, Textarea, Title } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type AskStreamResult, ThreadDocument } from '@trove/api-client/browser';
import { gql } from '../api/client';
import { AnswerView } from '../ask/answer-view';
import {
  type AskTurn,
  type CitedPlace,
  citedPlaces,
  isStreaming,
  nextQuestionThread,
  recordedTurn,
} from '../ask/ask-turn';
import { CitationPanel } from '../ask/citation-panel';
import { AnswerFeedbackButtons } from '../ask/feedback-buttons';
import { useFeedback } from '../ask/use-feedback';
import { ThreadList, threadsKey } from '../ask/thread-list';
import { useAsk } from '../ask/use-ask';
import {
  filtersInput,
  NO_FILTERS,
  SearchFilters,
  type SearchFilterValues,
} from '../components/search-filters';
import { Empty, ErrorNotice, Loading } from '../components/states';
import { useProject } from './use-project';

const threadKey = (threadId: string | undefined) => ['thread', threadId];

/**
 * Ask the project a question: the answer streams in with its citations, each marker opening the
 * place it cites. Questions form threads: the first question starts one (`?thread=` in the URL),
 * the next ones continue it, and a follow-up is searched for as the standalone question it was
 * rewritten into ("Searched for: …"). Keyboard: `/` focuses the question, Enter asks
 * (Shift+Enter for a new line), Tab reaches every marker, Escape closes the panel.
 */
export function AskPage() {
  const { projectId, project } = useProject();
  const [params, setParams] = useSearchParams();
  const threadId = params.get('thread') ?? undefined;
  const [question, setQuestion] = useState('');
  const [filters, setFilters] = useState<SearchFilterValues>(NO_FILTERS);
  /** The citation whose panel is open: the turn (by `turnKey`) and its marker. */
  const [open, setOpen] = useState<{ key: string; marker: number }>();
  const [drawer, { open: openDrawer, close: closeDrawer }] = useDisclosure();
  const queryClient = useQueryClient();
  const thread = useQuery({
    queryKey: threadKey(threadId),
    queryFn: () => gql(ThreadDocument, { id: threadId! }),
    enabled: threadId !== undefined,
  });
  const { turn, ask, stop, clear } = useAsk(projectId, (result: AskStreamResult) => {
    void queryClient.invalidateQueries({ queryKey: threadsKey(projectId) });
    if (!result.threadId) return;
    void queryClient.invalidateQueries({ queryKey: threadKey(result.threadId) });
    // A new thread's first answer: the page now shows that thread.
    if (result.threadId !== threadId) setParams({ thread: result.threadId }, { replace: true });
  });
  const input = useRef<HTMLTextAreaElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const streaming = isStreaming(turn);
  useHotkeys([['/', () => input.current?.focus()]]);

  const recorded = useMemo(
    () =>
      threadId && thread.data?.thread ? thread.data.thread.turns.map((t) => recordedTurn(threadId, t)) : [],
    [thread.data, threadId],
  );
  // The answer being written is shown in its thread (or, with none chosen, as the one it starts:
  // also while the URL catches up with the thread it started, which the router applies later),
  // in the place of its recorded copy: it has the passages and checks the record does not keep.
  const live =
    turn &&
    (turn.startsThread ? threadId === undefined || threadId === turn.threadId : turn.threadId === threadId)
      ? turn
      : undefined;
  const answerId = live?.result?.answerId;
  const next = nextQuestionThread(threadId, live);
  const followUp = 'threadId' in next;
  const turns = [
    ...recorded.filter((t) => answerId === undefined || t.result?.answerId !== answerId),
    ...(live ? [live] : []),
  ];
  // A new turn (asked here, or a thread opened) brings the newest answer and the box into view.
  useEffect(() => {
    if (turns.length > 0) bottom.current?.scrollIntoView({ block: 'nearest' });
  }, [turns.length, threadId]);
  const turnKey = (shown: AskTurn) => (shown === live ? 'live' : (shown.result?.answerId ?? ''));
  const openTurn = open && turns.find((shown) => turnKey(shown) === open.key);
  const places = openTurn ? citedPlaces(openTurn) : new Map<number, CitedPlace>();
  // Votes go to recorded answers: a turn is voted on once its answer is complete.
  const votable = (shown: AskTurn) => (shown.phase === 'done' ? shown.result?.answerId : undefined);
  const openAnswerId = openTurn ? votable(openTurn) : undefined;
  const openFeedback = useFeedback(projectId, openAnswerId);

  function submit(event: Pick<FormEvent, 'preventDefault'>) {
    event.preventDefault();
    const text = question.trim();
    if (!text) return;
    setOpen(undefined);
    setQuestion('');
    const search = filtersInput(filters);
    void ask(text, search && { filters: search }, next);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  function showThread(next: string | undefined) {
    if (next !== threadId || next === undefined) clear();
    setOpen(undefined);
    setParams(next ? { thread: next } : {});
    closeDrawer();
    input.current?.focus();
  }

  const list = (titled: boolean) => (
    <ThreadList
      projectId={projectId}
      selected={threadId}
      onSelect={(id) => showThread(id)}
      onNew={() => showThread(undefined)}
      titled={titled}
    />
  );

  return (
    <Stack>
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} style={{ minWidth: 0 }}>
          Ask{project ? ` · ${project.name}` : ''}
        </Title>
        <Button
          variant="default"
          size="compact-sm"
          hiddenFrom="md"
          onClick={openDrawer}
          style={{ flexShrink: 0 }}
        >
          Threads
        </Button>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }} visibleFrom="md">
          {list(true)}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack>
            {threadId && thread.isPending && <Loading label="Loading the thread…" />}
            {thread.isError && <ErrorNotice error={thread.error} title="The thread could not be read" />}
            {threadId && thread.isSuccess && !thread.data.thread && (
              <ErrorNotice
                error={new Error('This thread does not exist any more, or belongs to another key.')}
                title="No such thread"
              />
            )}
            {turns.length > 0 ? (
              <Stack data-testid="thread-turns">
                {/* Oldest first, as a conversation reads: the newest answer sits above the question box. */}
                {turns.map((shown) => (
                  <AnswerView
                    key={turnKey(shown)}
                    turn={shown}
                    onOpenPlace={(marker) => setOpen({ key: turnKey(shown), marker })}
                    footer={
                      votable(shown) && (
                        <AnswerFeedbackButtons projectId={projectId} answerId={votable(shown)!} />
                      )
                    }
                  />
                ))}
              </Stack>
            ) : (
              !threadId && (
                <Empty title="Ask this project">
                  The answer quotes or cites the project&apos;s documents; every marker opens the passage it
                  comes from. Without a language model configured, the answer is the most relevant sentences,
                  quoted. A question starts a thread: ask follow-ups in it (&quot;and for the Russian
                  office?&quot;) and they are read in its light.
                </Empty>
              )
            )}
            <div ref={bottom} />
            <form onSubmit={submit} aria-label="Ask a question">
              <Stack gap="xs">
                <Textarea
                  ref={input}
                  label={followUp ? 'Follow-up question' : 'Question'}
                  placeholder={
                    followUp
                      ? 'A follow-up, e.g. “and for the Russian office?”'
                      : 'How do I roll back a release?'
                  }
                  value={question}
                  onChange={(event) => setQuestion(event.currentTarget.value)}
                  onKeyDown={onKeyDown}
                  autosize
                  minRows={2}
                  maxRows={8}
                  autoFocus
                />
                <Group gap="xs" justify="space-between" wrap="wrap">
                  <Text size="xs" c="dimmed" visibleFrom="sm">
                    <Kbd size="xs">Enter</Kbd> asks, <Kbd size="xs">Shift</Kbd>+<Kbd size="xs">Enter</Kbd>{' '}
                    adds a line, <Kbd size="xs">/</Kbd> comes back here
                  </Text>
                  <Group gap="xs">
                    {streaming && (
                      <Button variant="light" color="gray" onClick={stop}>
                        Stop
                      </Button>
                    )}
                    <Button type="submit" disabled={!question.trim()} loading={streaming}>
                      Ask
                    </Button>
                  </Group>
                </Group>
                <SearchFilters projectId={projectId} value={filters} onChange={setFilters} />
              </Stack>
            </form>
          </Stack>
        </Grid.Col>
      </Grid>
      <Drawer
        opened={drawer}
        onClose={closeDrawer}
        title="Threads"
        position="left"
        size="85%"
        hiddenFrom="md"
      >
        <Box>{list(false)}</Box>
      </Drawer>
      <CitationPanel
        place={open === undefined ? undefined : places.get(open.marker)}
        onClose={() => setOpen(undefined)}
        feedback={openAnswerId ? openFeedback : undefined}
      />
    </Stack>
  );
}
