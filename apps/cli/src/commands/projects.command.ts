import { Command } from 'commander';
import {
  CreateProjectDocument,
  DeleteProjectDocument,
  ProjectsDocument,
  UpdateProjectSettingsDocument,
} from '@trove/api-client';
import { action, type CliIo } from '../context';
import { UsageError } from '../output/exit-codes';
import { renderTable } from '../output/render';

export function projectsCommand(io: CliIo): Command {
  const projects = new Command('projects').description('list, create and delete projects').addHelpText(
    'after',
    `
Examples:
  $ trove projects list
  $ trove projects create "Team handbook"
  $ trove projects settings "Team handbook" --ocr off
  $ trove projects delete "Team handbook" --yes`,
  );

  projects
    .command('list')
    .description('the projects this key reaches, with their document and chunk counts')
    .action(
      action(io, async (ctx) => {
        const { projects: list } = await ctx.client.request(ProjectsDocument);
        ctx.out.result(list, () => {
          if (!list.length)
            return ctx.out.line(ctx.out.style.dim('No projects yet: trove projects create <name>'));
          const rows = list.map((p) => [
            p.id,
            p.status,
            String(p.stats.documentCount),
            String(p.stats.chunkCount),
            p.name,
          ]);
          for (const line of renderTable(
            ['ID', 'STATUS', 'DOCUMENTS', 'CHUNKS', 'NAME'],
            rows,
            ctx.out.style,
          ))
            ctx.out.line(line);
        });
      }),
    );

  projects
    .command('create')
    .description('create a project (names are unique, ignoring case)')
    .argument('<name>', 'the project name')
    .action(
      action(io, async (ctx, name: string) => {
        const { createProject } = await ctx.client.request(CreateProjectDocument, { name });
        ctx.out.result(createProject, () =>
          ctx.out.line(`Created project ${ctx.out.style.bold(createProject.name)} ${createProject.id}`),
        );
      }),
    );

  projects
    .command('settings')
    .description("show a project's settings, or change them")
    .argument('<project>', 'the project, by id or name')
    .option('--ocr <on|off>', 'read scans and images by OCR (documents ingested from then on)')
    .action(
      action(io, async (ctx, ref: string, options: { ocr?: string }) => {
        const id = await ctx.resolveProject(ref);
        if (options.ocr !== undefined && !['on', 'off'].includes(options.ocr))
          throw new UsageError(`--ocr takes on or off, not "${options.ocr}"`);
        // Showing them needs only read access; changing them, write access to the project.
        const project =
          options.ocr === undefined
            ? (await ctx.client.request(ProjectsDocument)).projects.find((p) => p.id === id)!
            : (
                await ctx.client.request(UpdateProjectSettingsDocument, {
                  projectId: id,
                  input: { ocr: options.ocr === 'on' },
                })
              ).updateProjectSettings;
        ctx.out.result(project, () => {
          ctx.out.line(`${ctx.out.style.bold(project.name)} ${project.id}`);
          ctx.out.line(`  ocr  ${project.settings.ocr ? 'on' : 'off'}`);
        });
      }),
    );

  projects
    .command('delete')
    .description('delete a project with all its documents, sources and chunks')
    .argument('<project>', 'the project, by id or name')
    .option('--wait', 'return once the project is gone (else once it is marked DELETING)')
    .option('--yes', 'confirm: this cannot be undone')
    .action(
      action(io, async (ctx, ref: string, options: { wait?: boolean; yes?: boolean }) => {
        if (!options.yes)
          throw new UsageError(
            `deleting "${ref}" removes everything in it: add --yes to confirm`,
            'CONFIRMATION_REQUIRED',
          );
        const id = await ctx.resolveProject(ref);
        await ctx.client.request(DeleteProjectDocument, { id, wait: Boolean(options.wait) });
        ctx.out.result({ id, deleted: true, waited: Boolean(options.wait) }, () =>
          ctx.out.line(
            options.wait
              ? `Deleted project ${id}`
              : `Deleting project ${id} (trove projects list shows DELETING until it is gone)`,
          ),
        );
      }),
    );
  return projects;
}
