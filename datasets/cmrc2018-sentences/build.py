#!/usr/bin/env python3
"""Convert CMRC 2018 (Chinese span-extraction reading comprehension) into a BEIR-layout
question -> sentence retrieval set: harder than cmrc2018-paragraphs, because the other sentences
of the same paragraph (same article, same topic, often the same words) are in the corpus too.

Source: github.com/ymcui/cmrc2018 at commit c0eb1b6ba219847457e6af3180da722bbeb656af,
squad-style-data/cmrc2018_trial.json, copied to original/ (see PROVENANCE.md).

Rule:
  sentences = each paragraph's context cut after 。！？!? (with any closing quote or bracket that
              follows) and at line breaks, stripped; pieces of fewer than 2 characters dropped.
  corpus    = every sentence whose text is unique in the file; title = its article's title;
              _id = "s-" + first 16 hex of sha1(paragraph id + ":" + sentence index)
              (paragraph id and index kept under "metadata").
  queries   = every question whose first answer lies inside one sentence: the answer is found at
              answer_start, or else exactly once in the context; _id = "q-" + its id.
  qrels     = (question, that sentence), score 1. Another sentence that also answers is not
              judged: judgements are incomplete by construction.
  split     = int(sha1("cmrc2018:" + paragraph id), 16) % 3 == 0 -> test, else train: by
              paragraph (the rule of cmrc2018-paragraphs), so no paragraph has questions in both.

Python 3 standard library only. Usage: python3 build.py [--src original] [--out .]
"""
import argparse
import hashlib
import json
import os
import re

FILES = ('cmrc2018_trial.json',)
# A sentence ends after one of these, with the closing quotes or brackets right after it.
SENTENCE_END = re.compile(r'[。！？!?][”’」』）)]*|\n+')


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode('utf-8')).hexdigest()


def split_of(paragraph_id: str) -> str:
    return 'test' if int(sha1('cmrc2018:' + paragraph_id), 16) % 3 == 0 else 'train'


def sentences(context: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of each sentence, offsets into the context; text stripped."""
    pieces, start = [], 0
    for m in SENTENCE_END.finditer(context):
        pieces.append((start, m.end()))
        start = m.end()
    if start < len(context):
        pieces.append((start, len(context)))
    out = []
    for s, e in pieces:
        raw = context[s:e]
        text = raw.strip()
        if len(text) < 2:
            continue
        lead = len(raw) - len(raw.lstrip())
        out.append((s + lead, s + lead + len(text), text))
    return out


def answer_span(context: str, answer: dict) -> tuple[int, int] | None:
    text, start = answer['text'], answer.get('answer_start', -1)
    if text and 0 <= start and context[start:start + len(text)] == text:
        return start, start + len(text)
    if text and context.count(text) == 1:
        s = context.index(text)
        return s, s + len(text)
    return None


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', default=os.path.join(here, 'original'))
    ap.add_argument('--out', default=here)
    args = ap.parse_args()

    paragraphs = []  # (title, paragraph id, context, qas)
    for name in FILES:
        with open(os.path.join(args.src, name), encoding='utf-8') as f:
            for article in json.load(f)['data']:
                for p in article['paragraphs']:
                    paragraphs.append((article.get('title', '').strip(), p['id'], p['context'], p['qas']))

    counts: dict[str, int] = {}
    for _, _, context, _ in paragraphs:
        for _, _, text in sentences(context):
            counts[text] = counts.get(text, 0) + 1

    corpus, queries = [], {}
    qrels = {'train': [], 'test': []}
    skipped = {'no answer span': 0, 'answer across sentences': 0, 'duplicate sentence': 0}
    for title, pid, context, qas in paragraphs:
        spans = sentences(context)
        ids = []
        for index, (_, _, text) in enumerate(spans):
            sid = 's-' + sha1(f'{pid}:{index}')[:16]
            ids.append(sid if counts[text] == 1 else None)
            if counts[text] == 1:
                corpus.append({'_id': sid, 'title': title, 'text': text,
                               'metadata': {'paragraph_id': pid, 'sentence': index}})
        for qa in qas:
            question = qa['question'].strip()
            if not question or not qa.get('answers'):
                continue
            span = answer_span(context, qa['answers'][0])
            if span is None:
                skipped['no answer span'] += 1
                continue
            hit = [i for i, (s, e, _) in enumerate(spans) if s <= span[0] and span[1] <= e]
            if not hit:
                skipped['answer across sentences'] += 1
                continue
            if ids[hit[0]] is None:
                skipped['duplicate sentence'] += 1
                continue
            qid = 'q-' + qa['id']
            if qid in queries:
                raise SystemExit(f'question {qid!r} appears twice')
            queries[qid] = {'_id': qid, 'text': question}
            qrels[split_of(pid)].append((qid, ids[hit[0]]))

    if len({d['_id'] for d in corpus}) != len(corpus):
        raise SystemExit('document id collision')

    os.makedirs(os.path.join(args.out, 'qrels'), exist_ok=True)
    with open(os.path.join(args.out, 'corpus.jsonl'), 'w', encoding='utf-8') as f:
        for d in corpus:
            f.write(json.dumps(d, ensure_ascii=False) + '\n')
    with open(os.path.join(args.out, 'queries.jsonl'), 'w', encoding='utf-8') as f:
        for q in queries.values():
            f.write(json.dumps(q, ensure_ascii=False) + '\n')
    for split, rows in qrels.items():
        with open(os.path.join(args.out, 'qrels', f'{split}.tsv'), 'w', encoding='utf-8') as f:
            f.write('query-id\tcorpus-id\tscore\n')
            for qid, did in rows:
                f.write(f'{qid}\t{did}\t1\n')

    print(f'paragraphs={len(paragraphs)} sentences={len(corpus)} queries={len(queries)} skipped={skipped} '
          + ' '.join(f'{s}: queries={len({q for q, _ in r})} sentences={len({d for _, d in r})}'
                     for s, r in qrels.items()))


if __name__ == '__main__':
    main()
