import { Anchor, Badge, Card, Group, List, Stack, Text, UnstyledButton } from '@mantine/core';
import { Fragment, type ReactNode, useMemo } from 'react';
import type { AskStreamResult } from '@trove/api-client/browser';
import { formatMs } from '../components/format';
import { ErrorNotice, Loading } from '../components/states';
import { ANSWER_MODES, verificationSummary } from './answer-labels';
import { answerParts, citedMarkers } from './answer-parts';
import { type AskTurn, type CitedPlace, citedPlaces, isStreaming, placeMarkerOf } from './ask-turn';
import { placeName } from './place-name';

/**
 * One question and its answer: the text as it streams in, each citation a marker that opens its
 * place; then how the answer was made and what its verification found. `footer` is for what
 * belongs under an answer (feedback, follow-ups).
 */
export function AnswerView({
  turn,
  onOpenPlace,
  footer,
}: {
  turn: AskTurn;
  onOpenPlace: (marker: number) => void;
  footer?: ReactNode;
}) {
  const streaming = isStreaming(turn);
  const placeOf = useMemo(() => placeMarkerOf(turn.passages), [turn.passages]);
  const places = useMemo(() => citedPlaces(turn), [turn]);
  const parts = answerParts(turn.text, placeOf, { streaming });
  const cited = citedMarkers(parts).filter((marker) => places.has(marker));

  return (
    <Card withBorder padding="md" data-testid="answer" data-state={turn.phase} aria-busy={streaming}>
      <Stack gap="sm">
        <Text fw={600} style={{ wordBreak: 'break-word' }}>
          {turn.question}
        </Text>
        {turn.standaloneQuestion && (
          <Text size="sm" c="dimmed" data-testid="standalone-question" style={{ wordBreak: 'break-word' }}>
            Searched for: {turn.standaloneQuestion}
          </Text>
        )}
        {turn.result && <AnswerMode result={turn.result} recorded={turn.recorded} />}
        {turn.phase === 'searching' && <Loading label="Finding passages…" />}
        {turn.text && (
          <Text
            component="div"
            data-testid="answer-text"
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          >
            {parts.map((part, i) =>
              part.kind === 'text' ? (
                <Fragment key={i}>{part.text}</Fragment>
              ) : (
                <Fragment key={i}>
                  {part.markers.map((marker) => (
                    <Marker key={marker} marker={marker} place={places.get(marker)} onOpen={onOpenPlace} />
                  ))}
                </Fragment>
              ),
            )}
            {streaming && <span aria-hidden="true"> ▍</span>}
          </Text>
        )}
        {turn.phase === 'writing' && (
          <Text size="xs" c="dimmed" role="status">
            Writing…
          </Text>
        )}
        {turn.phase === 'stopped' && (
          <Text size="sm" c="dimmed" role="status">
            Stopped: the answer was not finished.
          </Text>
        )}
        {turn.phase === 'failed' && <ErrorNotice error={turn.error} title="The answer failed" />}
        {turn.result && !turn.recorded && <Verification result={turn.result} />}
        {cited.length > 0 && <CitedPlaces markers={cited} places={places} onOpen={onOpenPlace} />}
        {footer}
      </Stack>
    </Card>
  );
}

const MARKER_STYLE = {
  display: 'inline-block',
  minWidth: '1.6em',
  margin: '0 0.15em',
  padding: '0 0.35em',
  borderRadius: 4,
  fontSize: '0.78em',
  fontWeight: 700,
  lineHeight: 1.6,
  textAlign: 'center',
  verticalAlign: 'baseline',
  background: 'var(--mantine-color-indigo-light)',
  color: 'var(--mantine-color-indigo-light-color)',
} as const;

/** A citation marker: a button that opens its place; a number no passage has stays as written. */
function Marker({
  marker,
  place,
  onOpen,
}: {
  marker: number;
  place: CitedPlace | undefined;
  onOpen: (marker: number) => void;
}) {
  if (!place) return <>[{marker}]</>;
  return (
    <UnstyledButton
      data-testid="citation-marker"
      aria-label={`Citation ${marker}: ${placeName(place)}`}
      title={placeName(place)}
      onClick={() => onOpen(marker)}
      style={MARKER_STYLE}
    >
      {marker}
    </UnstyledButton>
  );
}

/** How the answer was made, said plainly. */
function AnswerMode({ result, recorded }: { result: AskStreamResult; recorded?: boolean }) {
  const mode = ANSWER_MODES[result.mode];
  return (
    <Group gap="xs" wrap="wrap" align="center">
      <Badge color={mode.color} variant="light" data-testid="answer-mode">
        {mode.label}
      </Badge>
      <Text size="sm" c="dimmed" style={{ flex: '1 1 240px' }}>
        {mode.explanation}
        {result.model ? ` Model: ${result.model}.` : ''}
        {recorded ? '' : ` Took ${formatMs(result.timings.totalMs)}.`}
      </Text>
    </Group>
  );
}

/** What checking the citations found. */
function Verification({ result }: { result: AskStreamResult }) {
  const { ok, lines } = verificationSummary(result);
  if (lines.length === 0) return null;
  const unsupported = result.verification.unsupportedSentences;
  return (
    <Stack gap={4} data-testid="verification" data-ok={ok}>
      <Text size="sm" fw={600} c={ok ? 'green.8' : 'orange.8'}>
        {ok ? '✓ Citations verified' : '⚠ Citations checked: problems found'}
      </Text>
      {lines.map((line) => (
        <Text key={line} size="sm">
          {line}
        </Text>
      ))}
      {unsupported.length > 0 && (
        <List size="sm" spacing={2}>
          {unsupported.map((sentence) => (
            <List.Item key={sentence.sentence} style={{ wordBreak: 'break-word' }}>
              {sentence.sentence}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/** The places the answer cites, each once, in the order it first cites them. */
function CitedPlaces({
  markers,
  places,
  onOpen,
}: {
  markers: number[];
  places: Map<number, CitedPlace>;
  onOpen: (marker: number) => void;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        Cited
      </Text>
      {markers.map((marker) => {
        const place = places.get(marker)!;
        return (
          <Group key={marker} gap="xs" wrap="nowrap" align="baseline" data-testid="cited-place">
            <Marker marker={marker} place={place} onOpen={onOpen} />
            <Text size="sm" style={{ minWidth: 0, wordBreak: 'break-word' }}>
              {placeName(place)}
              {place.citationUrl && (
                <>
                  {' · '}
                  <Anchor href={place.citationUrl} target="_blank" rel="noreferrer" size="sm">
                    open
                  </Anchor>
                </>
              )}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}
