import { Command } from 'commander';
import {
  DeleteThreadDocument,
  RenameThreadDocument,
  ThreadDocument,
  ThreadsDocument,
  type ThreadFieldsFragment,
} from '@trove/api-client';
import { TroveErrorCode } from '@trove/domain';
import { action, positiveInt, type CliIo } from '../context';
import { NotFoundError } from '../output/exit-codes';
import { renderCitations, renderTable } from '../output/render';

export function threadsCommand(io: CliIo): Command {
  const threads = new Command('threads')
    .description("conversations asked with `trove ask --thread`: this key's threads in the project")
    .addHelpText(
      'after',
      `
A thread keeps its questions and answers; a follow-up asked in it is rewritten into a standalone
question before retrieval. A key sees its own threads; ADMIN keys may list everyone's (--all).

Examples:
  $ trove threads list
  $ trove threads show thr_0b4f3c4e-…
  $ trove threads rename thr_0b4f3c4e-… "Deploying per office"
  $ trove threads delete thr_0b4f3c4e-…`,
    );

  threads
    .command('list')
    .description('threads, most recently used first')
    .option('--all', "every key's threads (ADMIN keys)")
    .option('--limit <n>', 'at most this many (default 50)', positiveInt('--limit', 10_000), 50)
    .action(
      action(io, async (ctx, options: { all?: boolean; limit: number }) => {
        const projectId = await ctx.projectId();
        const rows: ThreadFieldsFragment[] = [];
        let after: string | null | undefined;
        let totalCount = 0;
        do {
          const { threads: page } = await ctx.client.request(ThreadsDocument, {
            projectId,
            first: Math.min(500, options.limit - rows.length),
            after,
            allKeys: options.all ?? false,
          });
          rows.push(...page.nodes);
          totalCount = page.totalCount;
          after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        } while (after && rows.length < options.limit);
        ctx.out.result({ totalCount, nodes: rows }, () => {
          if (!rows.length) return ctx.out.line(ctx.out.style.dim('No threads.'));
          const table = rows.map((t) => [
            t.id,
            String(t.turnCount),
            t.updatedAt.slice(0, 16).replace('T', ' '),
            t.title,
          ]);
          for (const line of renderTable(['ID', 'TURNS', 'LAST USED', 'TITLE'], table, ctx.out.style))
            ctx.out.line(line);
          if (totalCount > rows.length)
            ctx.out.line(ctx.out.style.dim(`${rows.length} of ${totalCount} (--limit for more)`));
        });
      }),
    );

  threads
    .command('show')
    .description("a thread's turns: each question, what was searched for, the answer and its sources")
    .argument('<id>', 'the thread id')
    .action(
      action(io, async (ctx, id: string) => {
        const { thread } = await ctx.client.request(ThreadDocument, { id });
        if (!thread)
          throw new NotFoundError(`no thread ${id} that this key reaches`, TroveErrorCode.ThreadNotFound);
        ctx.out.result(thread, () => {
          const { style } = ctx.out;
          ctx.out.line(`${style.bold(thread.title)}  ${style.dim(thread.id)}`);
          for (const turn of thread.turns) {
            ctx.out.line();
            ctx.out.line(style.bold(`${turn.position}. ${turn.question}`));
            if (turn.standaloneQuestion) ctx.out.line(style.dim(`Searched for: ${turn.standaloneQuestion}`));
            ctx.out.line(turn.answer);
            const insufficientContext = turn.mode === 'INSUFFICIENT_CONTEXT';
            for (const line of renderCitations({ ...turn, insufficientContext }, style)) ctx.out.line(line);
          }
        });
      }),
    );

  threads
    .command('rename')
    .description('give a thread another title')
    .argument('<id>', 'the thread id')
    .argument('<title>', 'the new title')
    .action(
      action(io, async (ctx, id: string, title: string) => {
        const { renameThread } = await ctx.client.request(RenameThreadDocument, { id, title });
        ctx.out.result(renameThread, () => ctx.out.line(`Renamed thread ${id}: ${renameThread.title}`));
      }),
    );

  threads
    .command('delete')
    .description('delete a thread and its turns')
    .argument('<id>', 'the thread id')
    .action(
      action(io, async (ctx, id: string) => {
        await ctx.client.request(DeleteThreadDocument, { id });
        ctx.out.result({ id, deleted: true }, () => ctx.out.line(`Deleted thread ${id}`));
      }),
    );
  return threads;
}
