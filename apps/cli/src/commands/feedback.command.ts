import { Command } from 'commander';
import { action, type CliIo } from '../context';
import type { OutStream } from '../output/output';
import { countBar } from '../output/progress';

/** Writes `text`, waiting while a pipe is full (an export may be far larger than memory wants). */
async function write(stream: OutStream, text: string): Promise<void> {
  if (stream.write(text) !== false) return;
  const drains = stream as Partial<Pick<NodeJS.WritableStream, 'once'>>;
  if (drains.once) await new Promise((resolve) => drains.once!('drain', resolve));
}

export function feedbackCommand(io: CliIo): Command {
  const feedback = new Command('feedback')
    .description("votes on answers (ADMIN keys): export them as the learned reranker's training data")
    .addHelpText(
      'after',
      `
Examples:
  $ trove feedback export Handbook > votes.jsonl
  $ node -r @swc-node/register tools/eval/train-reranker.ts … --feedback votes.jsonl`,
    );

  feedback
    .command('export')
    .description(
      'every vote of the project as JSON Lines on stdout (question, vote, comment, the passages with their features); progress on stderr',
    )
    .argument('<project>', 'project id or name')
    .action(
      action(io, async (ctx, project: string) => {
        const projectId = await ctx.resolveProject(project);
        const { count, lines } = await ctx.client.exportFeedback(projectId);
        const bar = countBar(ctx.out.progress, ctx.io.stderr, 'exporting [{bar}] {value}/{total} votes', {});
        let written = 0;
        try {
          for await (const line of lines) {
            await write(ctx.io.stdout, `${line}\n`);
            written += 1;
            if (written % 100 === 0 || written === count) bar.update(written, Math.max(count, written), {});
          }
        } finally {
          bar.update(written, Math.max(count, written), {});
          bar.stop();
        }
        ctx.io.stderr.write(`exported ${written} votes of project ${projectId}\n`);
      }),
    );
  return feedback;
}
