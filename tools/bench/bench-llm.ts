/**
 * The local LLM's raw speed on this machine: prompt tokens read per second and tokens written per
 * second, for each model of the catalogue (libs/llm), with one thread and with two (the baseline
 * and the alternative, measured in the same run; TROVE_LLM_THREADS picks; TROVE_BENCH_LLM_THREADS
 * narrows the run). Each figure is the
 * median of a few rounds; every round's prompt starts differently, so nothing is read from the
 * cache of the round before. Run: npm run bench:llm
 */
import { cpus, loadavg } from 'node:os';
import { llmSchema, localLlmSchema } from '@trove/config';
import type { LlmProvider } from '@trove/domain';
import { createLlmProvider, LOCAL_MODELS, releaseLocalModels } from '@trove/llm';
import { installLocalModel } from '@trove/test-support';
import { writeBenchmarkSections } from '@trove/tools-support';

const ROUNDS = 2;
/** Thread counts measured, e.g. `TROVE_BENCH_LLM_THREADS=1` for one figure per model (half the time). */
const THREADS = (process.env.TROVE_BENCH_LLM_THREADS ?? '1,2').split(',').map(Number);
/** About 700 tokens of passages, as an answer's prompt holds (TROVE_LLM=local budgets ~1,500). */
const PASSAGE =
  'Releases go out every Tuesday from the main branch; the pipeline tags each release, builds the images and ' +
  'deploys them to staging first. If error rates climb after a release, roll back first and investigate later: ' +
  'run deployctl rollback with the release tag and confirm the prompt. A rollback never reverts the database schema. ';
const PROMPT = PASSAGE.repeat(12);
const WRITE = 'Count from 1 to 300, the numbers separated by commas, and nothing else.';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One call: seconds to the first token (reading the prompt), then tokens written per second. */
async function measure(llm: LlmProvider, nonce: string, content: string, maxTokens: number) {
  const started = performance.now();
  let first: number | undefined;
  let usage: { promptTokens?: number; completionTokens?: number } | undefined;
  for await (const event of llm.stream({
    messages: [
      { role: 'system', content: `Session ${nonce}. You are a careful assistant.` },
      { role: 'user', content },
    ],
    maxTokens,
    temperature: 0,
  })) {
    if (event.type === 'delta') first ??= performance.now();
    else usage = event.usage;
  }
  const end = performance.now();
  return {
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
    readSeconds: ((first ?? end) - started) / 1000,
    writeSeconds: (end - (first ?? end)) / 1000,
  };
}

async function main() {
  const command = 'npm run bench:llm';
  const rows: string[] = [];
  const loadStart = loadavg()[0];
  for (const model of Object.values(LOCAL_MODELS)) {
    await installLocalModel(model.name);
    for (const threads of THREADS) {
      const llm = createLlmProvider(
        // Deadlines that only bound a hang: a loaded machine reads the prompt for tens of seconds.
        llmSchema.parse({
          provider: 'local',
          model: model.name,
          contextTokens: 2048,
          maxTokens: 256,
          timeoutMs: 600_000,
          idleTimeoutMs: 300_000,
        }),
        localLlmSchema.parse({ threads }),
      )!;
      const loadStarted = performance.now();
      await llm.ping();
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      const read: number[] = [];
      const write: number[] = [];
      let promptTokens = 0;
      let written = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const reading = await measure(llm, `r${threads}-${round}-${Date.now()}`, PROMPT, 1);
        promptTokens = reading.promptTokens;
        read.push(reading.promptTokens / reading.readSeconds);
        const writing = await measure(llm, `w${threads}-${round}-${Date.now()}`, WRITE, 128);
        written = writing.completionTokens;
        write.push((writing.completionTokens - 1) / writing.writeSeconds);
      }
      await releaseLocalModels();
      const row = `| ${model.name} | ${threads} | ${loadSeconds.toFixed(1)} | ${promptTokens} | ${median(read).toFixed(1)} | ${written} | ${median(write).toFixed(1)} |`;
      console.log(row);
      rows.push(row);
    }
  }
  const loadEnd = loadavg()[0];
  writeBenchmarkSections(
    command,
    `## Local LLM speed (npm run bench:llm)

The local provider's raw speed (libs/llm LocalLlm: npm node-llama-cpp's prebuilt CPU binary, in this process) for
each model of the catalogue, with ${THREADS.join(' and with ')} thread(s) (TROVE_LLM_THREADS' default on 2 cores: 1, every core
but one), in the same run: the models are each other's baseline. Read: prompt tokens per second, from the call's start to its first token, on a ~${Math.round(
      PROMPT.length / 4,
    )}-token prompt of passages. Write: tokens per second after the first (a counting task, up to 128 tokens).
Medians of ${ROUNDS} rounds, each prompt new to the model (no cache). Load: model file mapped and its context made
(first call of the process). Machine: ${cpus().length} cores shared with the local services and other work (load
average ${loadStart.toFixed(1)} → ${loadEnd.toFixed(1)}); on an idle machine expect more, under load less.

| model | threads | load s | prompt tokens | read tokens/s | tokens written | write tokens/s |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`,
  );
  console.log('[bench:llm] wrote its section of BENCHMARKS.md');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
