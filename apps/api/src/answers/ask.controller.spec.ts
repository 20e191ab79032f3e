import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import type { AnswerEvent, AskRequest } from '@trove/answering';
import type { NewAnswer } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ApiKeyRole, type Principal, type Project, TroveError, TroveErrorCode } from '@trove/domain';
import { AskController } from './ask.controller';
import { AskService } from './ask.service';

/** An express response that records what was written, and can be "disconnected". */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  statusCode = 0;
  headers: Record<string, string> = {};
  writableEnded = false;
  destroyed = false;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  headersFlushed = false;
  flushHeaders() {
    this.headersFlushed = true;
  }
  write(chunk: string) {
    this.written.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
  disconnect() {
    this.destroyed = true;
    this.emit('close');
  }
}

function controller(
  stream: (request: AskRequest, options: { signal?: AbortSignal }) => AsyncGenerator<AnswerEvent>,
) {
  const seen: { request?: AskRequest; signal?: AbortSignal } = {};
  const answerer = {
    ask: () => Promise.reject(new Error('these tests stream')),
    stream: (request: AskRequest, options: { signal?: AbortSignal }) => {
      seen.request = request;
      seen.signal = options.signal;
      return stream(request, options);
    },
  };
  const catalog = {
    requireProject: async (id: string): Promise<Project> => ({
      id,
      name: 'p',
      createdAt: '2026-11-26T00:00:00Z',
    }),
    searchScope: (): Promise<string[]> =>
      Promise.reject(new Error('no source or date filter in these tests')),
    recorded: [] as NewAnswer[],
    recordAnswer(answer: NewAnswer): Promise<string> {
      this.recorded.push(answer);
      return Promise.resolve('ans_1');
    },
  };
  const res = new FakeResponse();
  const req = { res, socket: { destroyed: false } } as unknown as Request;
  return {
    controller: new AskController(
      new AskService(
        answerer,
        catalog,
        catalog,
        catalog,
        { search: { maxFilterDocuments: 10 } } as ApiConfig,
        { unsigned: (url) => url },
        { forQuestion: () => Promise.resolve({}) },
      ),
    ),
    catalog,
    res,
    req,
    seen,
  };
}

const ADMIN: Principal = { keyId: 'key-1', name: 'admin', role: ApiKeyRole.ADMIN, projects: 'ALL' };

const result = {
  answer: 'Run it [1].',
  mode: 'EXTRACTIVE',
  insufficientContext: false,
  language: 'en',
  citations: [],
  verification: {
    validMarkers: [1],
    invalidMarkers: [],
    missingMarkers: false,
    retried: false,
    checkedSentences: 1,
    unsupportedSentences: [],
  },
  timings: { totalMs: 1 },
} as unknown as Extract<AnswerEvent, { type: 'done' }>['result'];

describe('AskController (Server-Sent Events)', () => {
  it('writes retrieval, delta and done as named events with one line of JSON each', async () => {
    const {
      controller: ask,
      res,
      req,
      seen,
      catalog,
    } = controller(async function* () {
      yield { type: 'retrieval', passages: [] };
      yield { type: 'delta', text: 'Run it\n[1].', attempt: 1 };
      yield { type: 'done', result };
    });
    await ask.stream('prj_1', { question: 'How?', topK: 3 }, req, res as unknown as Response, ADMIN);
    expect(seen.request).toMatchObject({ projectId: 'prj_1', question: 'How?', topK: 3, mode: 'AUTO' });
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headersFlushed).toBe(true);
    expect(res.written).toEqual([
      'event: retrieval\ndata: {"passages":[]}\n\n',
      'event: delta\ndata: {"text":"Run it\\n[1].","attempt":1}\n\n',
      `event: done\ndata: ${JSON.stringify({ ...result, answerId: 'ans_1' })}\n\n`,
    ]);
    expect(res.writableEnded).toBe(true);
    expect(catalog.recorded).toEqual([
      expect.objectContaining({
        projectId: 'prj_1',
        question: 'How?',
        mode: 'EXTRACTIVE',
        apiKeyId: 'key-1',
      }),
    ]);
  });

  it('stops the answer when the client disconnects: the signal aborts and nothing more is written', async () => {
    let resumed = false;
    const {
      controller: ask,
      res,
      req,
      seen,
    } = controller(async function* (_request, { signal }) {
      yield { type: 'retrieval', passages: [] };
      res.disconnect();
      resumed = true;
      if (signal?.aborted) throw new TroveError(TroveErrorCode.Cancelled, 'cancelled');
      yield { type: 'delta', text: 'never sent', attempt: 1 };
    });
    await ask.stream('prj_1', { question: 'How?' }, req, res as unknown as Response, ADMIN);
    expect(resumed).toBe(true);
    expect(seen.signal?.aborted).toBe(true);
    expect(res.written).toEqual(['event: retrieval\ndata: {"passages":[]}\n\n']);
  });

  it('ends with an error event, without backend details, when the model fails mid-stream', async () => {
    const {
      controller: ask,
      res,
      req,
    } = controller(async function* () {
      yield { type: 'retrieval', passages: [] };
      throw new TroveError(TroveErrorCode.LlmFailed, 'connect ECONNREFUSED 10.0.0.7:11434');
    });
    await ask.stream('prj_1', { question: 'How?' }, req, res as unknown as Response, ADMIN);
    expect(res.written.at(-1)).toBe(
      'event: error\ndata: {"code":"LLM_FAILED","message":"the language model could not complete the request; see the API logs"}\n\n',
    );
  });

  it('throws before streaming on a bad body or a failure before the first event (a JSON error follows)', async () => {
    const {
      controller: ask,
      res,
      req,
    } = controller(async function* () {
      yield* [];
      throw new TroveError(TroveErrorCode.BadRequest, 'topK must be an integer between 1 and 50');
    });
    await expect(
      ask.stream('prj_1', { question: 7 }, req, res as unknown as Response, ADMIN),
    ).rejects.toMatchObject({ code: TroveErrorCode.BadRequest });
    await expect(
      ask.stream('prj_1', { question: 'How?', topK: 99 }, req, res as unknown as Response, ADMIN),
    ).rejects.toMatchObject({ code: TroveErrorCode.BadRequest });
    expect(res.written).toEqual([]);
    expect(res.statusCode).toBe(0);
  });
});
