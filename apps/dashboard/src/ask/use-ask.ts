import { useCallback, useEffect, useRef, useState } from 'react';
import { type AskStreamRequest, TroveApiError } from '@trove/api-client/browser';
import { askStream } from '../api/client';
import { type AskTurn, isStreaming, newTurn, withEvent, withFailure } from './ask-turn';

/**
 * Asks a project and follows the streamed answer: the turn changes with every event. Asking
 * again, stopping, leaving the page or switching project stops the answer being written.
 */
export function useAsk(projectId: string) {
  const [asked, setAsked] = useState<{ projectId: string; turn: AskTurn }>();
  const running = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => running.current?.abort(), [projectId]);

  const ask = useCallback(
    async (question: string, search?: AskStreamRequest['search']) => {
      running.current?.abort();
      const own = new AbortController();
      running.current = own;
      // Only the latest question may change the page.
      const update = (next: (turn: AskTurn) => AskTurn) => {
        if (running.current === own)
          setAsked((current) => current && { projectId, turn: next(current.turn) });
      };
      setAsked({ projectId, turn: newTurn(question) });
      try {
        for await (const event of askStream(projectId, { question, search }, own.signal)) {
          update((turn) => withEvent(turn, event));
        }
        update((turn) =>
          isStreaming(turn)
            ? withFailure(
                turn,
                new TroveApiError('The answer ended before it was complete', 'INTERNAL'),
                false,
              )
            : turn,
        );
      } catch (error) {
        update((turn) => withFailure(turn, error, own.signal.aborted));
      }
    },
    [projectId],
  );

  const stop = useCallback(() => running.current?.abort(), []);

  return { turn: asked?.projectId === projectId ? asked.turn : undefined, ask, stop };
}
