import { Button, Group, Kbd, Stack, Text, Textarea, Title } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { type FormEvent, type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { AnswerView } from '../ask/answer-view';
import { type CitedPlace, citedPlaces, isStreaming } from '../ask/ask-turn';
import { CitationPanel } from '../ask/citation-panel';
import { FeedbackButtons } from '../ask/feedback-buttons';
import { useFeedback } from '../ask/use-feedback';
import { useAsk } from '../ask/use-ask';
import {
  filtersInput,
  NO_FILTERS,
  SearchFilters,
  type SearchFilterValues,
} from '../components/search-filters';
import { Empty } from '../components/states';
import { useProject } from './use-project';

/**
 * Ask the project a question: the answer streams in with its citations, each marker opening the
 * place it cites. Keyboard: `/` focuses the question, Enter asks (Shift+Enter for a new line),
 * Tab reaches every marker, Escape closes the panel.
 */
export function AskPage() {
  const { projectId, project } = useProject();
  const [question, setQuestion] = useState('');
  const [filters, setFilters] = useState<SearchFilterValues>(NO_FILTERS);
  const [openMarker, setOpenMarker] = useState<number>();
  const { turn, ask, stop } = useAsk(projectId);
  const answerId = turn?.phase === 'done' ? turn.result?.answerId : undefined;
  const feedback = useFeedback(projectId, answerId);
  const input = useRef<HTMLTextAreaElement>(null);
  const streaming = isStreaming(turn);
  const places = useMemo(() => (turn ? citedPlaces(turn) : new Map<number, CitedPlace>()), [turn]);
  useHotkeys([['/', () => input.current?.focus()]]);

  function submit(event: Pick<FormEvent, 'preventDefault'>) {
    event.preventDefault();
    const text = question.trim();
    if (!text) return;
    setOpenMarker(undefined);
    const search = filtersInput(filters);
    void ask(text, search && { filters: search });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  }

  return (
    <Stack>
      <Title order={2}>Ask{project ? ` · ${project.name}` : ''}</Title>
      <form onSubmit={submit} aria-label="Ask a question">
        <Stack gap="xs">
          <Textarea
            ref={input}
            label="Question"
            placeholder="How do I roll back a release?"
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
              <Kbd size="xs">Enter</Kbd> asks, <Kbd size="xs">Shift</Kbd>+<Kbd size="xs">Enter</Kbd> adds a
              line, <Kbd size="xs">/</Kbd> comes back here
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
      {turn ? (
        <AnswerView
          turn={turn}
          onOpenPlace={setOpenMarker}
          footer={answerId && <FeedbackButtons feedback={feedback} target={{}} label="answer" />}
        />
      ) : (
        <Empty title="Ask this project">
          The answer quotes or cites the project&apos;s documents; every marker opens the passage it comes
          from. Without a language model configured, the answer is the most relevant sentences, quoted.
        </Empty>
      )}
      <CitationPanel
        place={openMarker === undefined ? undefined : places.get(openMarker)}
        onClose={() => setOpenMarker(undefined)}
        feedback={answerId ? feedback : undefined}
      />
    </Stack>
  );
}
