import { Anchor, Blockquote, Drawer, Group, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { CitedPlace } from './ask-turn';
import { FeedbackButtons } from './feedback-buttons';
import { placeName } from './place-name';
import { highlightQuote } from './quote-highlight';
import type { AnswerFeedback } from './use-feedback';

/**
 * The side panel of a citation: its place's passages with the quoted sentences marked, and the
 * link that opens the place itself. Full width on a phone. Escape closes it and gives the focus
 * back to the marker that opened it. With `feedback` (the answer is recorded), each passage can be
 * voted up or down.
 */
export function CitationPanel({
  place,
  onClose,
  feedback,
}: {
  place: CitedPlace | undefined;
  onClose: () => void;
  feedback?: AnswerFeedback;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Drawer
      opened={place !== undefined}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={place ? `[${place.marker}] ${place.title}` : undefined}
      styles={{ title: { fontWeight: 700, wordBreak: 'break-word' } }}
    >
      {place && <PlaceDetails place={place} feedback={feedback} />}
    </Drawer>
  );
}

function PlaceDetails({ place, feedback }: { place: CitedPlace; feedback?: AnswerFeedback }) {
  const chunks = place.chunks.map((chunk) => ({ ...chunk, spans: highlightQuote(chunk.text, place.quote) }));
  const marked = chunks.some((chunk) => chunk.spans.some((span) => span.quoted));
  return (
    <Stack gap="sm" data-testid="citation-panel">
      {placeName(place) !== place.title && (
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
          {placeName(place)}
        </Text>
      )}
      {place.citationUrl ? (
        <div>
          <Anchor href={place.citationUrl} target="_blank" rel="noreferrer" fw={600} data-testid="place-link">
            Open the cited place ↗
          </Anchor>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {place.citationUrl}
          </Text>
        </div>
      ) : (
        <Text size="sm" c="dimmed">
          This place has no link.
        </Text>
      )}
      {place.quote === undefined && (
        <Text size="sm" c="dimmed">
          The quoted sentences are marked once the answer is complete.
        </Text>
      )}
      {place.quote !== undefined && !marked && (
        <Blockquote p="sm" data-testid="quote">
          {place.quote}
        </Blockquote>
      )}
      {feedback &&
        chunks.length === 0 &&
        place.citedChunkIds.map((chunkId) => (
          <FeedbackButtons key={chunkId} feedback={feedback} target={{ chunkId }} label="passage" />
        ))}
      {chunks.map((chunk) => (
        <Paper key={chunk.chunkId} withBorder p="sm" data-testid="citation-chunk">
          {chunk.headingPath.join() !== place.headingPath.join() && (
            <Text size="xs" c="dimmed" mb={4} style={{ wordBreak: 'break-word' }}>
              {chunk.headingPath.join(' › ')}
            </Text>
          )}
          <Text component="div" size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {chunk.spans.map((span, i) =>
              span.quoted ? (
                <mark key={i} data-testid="quoted">
                  {span.text}
                </mark>
              ) : (
                span.text
              ),
            )}
          </Text>
          {chunk.truncated && (
            <Text size="xs" c="dimmed" mt={4}>
              Cut to fit the answer&apos;s context.
            </Text>
          )}
          {feedback && (
            <Group mt={6}>
              <FeedbackButtons feedback={feedback} target={{ chunkId: chunk.chunkId }} label="passage" />
            </Group>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
