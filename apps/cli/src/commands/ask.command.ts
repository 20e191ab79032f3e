import { Command, InvalidArgumentError } from 'commander';
import type { AskStreamResult } from '@trove/api-client';
import { isThreadId } from '@trove/domain';
import { action, positiveInt, type CliIo } from '../context';
import { CliError, ExitCode } from '../output/exit-codes';
import { renderCitations } from '../output/render';

function threshold(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < -1 || number > 1)
    throw new InvalidArgumentError('--threshold must be a number from -1 to 1.');
  return number;
}

export function askCommand(io: CliIo): Command {
  return new Command('ask')
    .description(
      'a cited answer from the project: the text as it is written, then the numbered sources with links',
    )
    .argument('<question>', 'the question, in any language (the answer uses it)')
    .option(
      '--top-k <n>',
      'passages retrieved, 1 to 50 (default: the server setting)',
      positiveInt('--top-k', 50),
    )
    .option(
      '--threshold <cosine>',
      'least question–passage similarity, -1 to 1 (default: the server setting)',
      threshold,
    )
    .option(
      '--thread <id|new>',
      'ask in a conversation: "new" starts one, a thread id continues it (a follow-up is read in its light)',
      thread,
    )
    .addHelpText(
      'after',
      `
Without a language model configured on the server the answer quotes the best passages (EXTRACTIVE).
--json prints only the final, verified result.
In a thread, a follow-up ("and for the Russian office?") is rewritten into a standalone question
before retrieval; the rewritten question is printed first ("Searched for: …"), the thread id last.
\`trove threads\` lists, shows, renames and deletes threads.

Examples:
  $ trove ask "How do I roll back a release?"
  $ trove ask "Как откатить релиз?" --top-k 8
  $ trove ask "How do I deploy in the Berlin office?" --thread new
  $ trove ask "and for the Russian office?" --thread thr_0b4f3c4e-…
  $ trove ask "What does hybrid search combine?" --json | jq '.citations[].citationUrl'`,
    )
    .action(
      action(
        io,
        async (
          ctx,
          question: string,
          options: { topK?: number; threshold?: number; thread?: ThreadOption },
        ) => {
          const { out } = ctx;
          let result: AskStreamResult | undefined;
          let streamed = '';
          const events = ctx.client.askStream(await ctx.projectId(), {
            question,
            topK: options.topK,
            threshold: options.threshold,
            ...options.thread,
            search: { mode: ctx.settings.mode.value },
          });
          for await (const event of events) {
            if (event.type === 'retrieval' && event.standaloneQuestion) {
              out.line(out.style.dim(`Searched for: ${event.standaloneQuestion}`));
            } else if (event.type === 'delta') {
              if (event.attempt > 1 && streamed) {
                // The server starts over after invalid citations; so does the terminal.
                out.text(`\n${out.style.dim('(rewriting with valid citations)')}\n`);
                streamed = '';
              }
              streamed += event.text;
              out.text(event.text);
            } else if (event.type === 'done') {
              result = event.result;
            }
          }
          if (!result)
            throw new CliError(
              'the answer stream ended without a result',
              ExitCode.Failure,
              'STREAM_INCOMPLETE',
            );
          const final = result;
          out.result(final, () => {
            if (streamed.trim() !== final.answer.trim()) {
              if (streamed) out.text(`\n${out.style.dim('(as verified)')}\n`);
              out.text(final.answer);
            }
            out.line();
            for (const line of renderCitations(final, out.style)) out.line(line);
            if (final.threadId) {
              out.line();
              out.line(out.style.dim(`Thread: ${final.threadId} (continue with --thread ${final.threadId})`));
            }
          });
        },
      ),
    );
}

/** `--thread new` starts a thread; anything else names one to continue. */
type ThreadOption = { newThread: true } | { threadId: string };

function thread(value: string): ThreadOption {
  if (value.toLowerCase() === 'new') return { newThread: true };
  if (!isThreadId(value)) throw new InvalidArgumentError('--thread takes "new" or a thread id (thr_…).');
  return { threadId: value };
}
