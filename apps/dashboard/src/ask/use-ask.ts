import { useCallback, useEffect, useRef, useState } from 'react';
import { type AskStreamRequest, type AskStreamResult, TroveApiError } from '@trove/api-client/browser';
import { askStream } from '../api/client';
import { type AskTurn, isStreaming, newTurn, type ThreadChoice, withEvent, withFailure } from './ask-turn';

/**
 * Asks a project and follows the streamed answer: the turn changes with every event, and
 * `onDone` hears the verified result (its thread, its recorded id). Asking again, stopping,
 * clearing, leaving the page or switching project stops the answer being written.
 */
export function useAsk(projectId: string, onDone?: (result: AskStreamResult) => void) {
  const [asked, setAsked] = useState<{ projectId: string; turn: AskTurn }>();
  const running = useRef<AbortController | undefined>(undefined);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });

  useEffect(() => () => running.current?.abort(), [projectId]);

  const ask = useCallback(
    async (question: string, search?: AskStreamRequest['search'], thread?: ThreadChoice) => {
      running.current?.abort();
      const own = new AbortController();
      running.current = own;
      // Only the latest question may change the page.
      const update = (next: (turn: AskTurn) => AskTurn) => {
        if (running.current === own)
          setAsked((current) => current && { projectId, turn: next(current.turn) });
      };
      setAsked({ projectId, turn: newTurn(question, thread) });
      try {
        for await (const event of askStream(projectId, { question, search, ...thread }, own.signal)) {
          update((turn) => withEvent(turn, event));
          if (event.type === 'done' && running.current === own) done.current?.(event.result);
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
  /** Stops the answer and forgets it (another thread is shown). */
  const clear = useCallback(() => {
    running.current?.abort();
    running.current = undefined;
    setAsked(undefined);
  }, []);

  return { turn: asked?.projectId === projectId ? asked.turn : undefined, ask, stop, clear };
}
