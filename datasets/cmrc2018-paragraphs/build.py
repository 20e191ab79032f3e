#!/usr/bin/env python3
"""Convert CMRC 2018 (Chinese span-extraction reading comprehension) into a BEIR-layout
question -> paragraph retrieval set.

Source: github.com/ymcui/cmrc2018 at commit c0eb1b6ba219847457e6af3180da722bbeb656af,
squad-style-data/cmrc2018_dev.json and squad-style-data/cmrc2018_trial.json, copied to original/.

Rule:
  corpus  = every paragraph of both files (Chinese Wikipedia), title = its article's title,
            text = the paragraph; _id = "p-" + first 16 hex of sha1(paragraph id)
            (the original paragraph id is kept under "metadata").
  queries = every question; _id = "q-" + its id; text = the question.
  qrels   = (question, the paragraph it was written on), score 1. A question another paragraph
            also answers is not judged there: judgements are incomplete by construction.
  split   = int(sha1("cmrc2018:" + paragraph id), 16) % 3 == 0 -> test, else train: by paragraph,
            so no paragraph has questions in both splits.

Python 3 standard library only. Usage: python3 build.py [--src original] [--out .]
"""
import argparse
import hashlib
import json
import os

FILES = ('cmrc2018_dev.json', 'cmrc2018_trial.json')


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode('utf-8')).hexdigest()


def split_of(paragraph_id: str) -> str:
    return 'test' if int(sha1('cmrc2018:' + paragraph_id), 16) % 3 == 0 else 'train'


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', default=os.path.join(here, 'original'))
    ap.add_argument('--out', default=here)
    args = ap.parse_args()

    corpus = {}  # paragraph id -> doc, in file order
    queries = {}
    qrels = {'train': [], 'test': []}
    texts = {}
    for name in FILES:
        with open(os.path.join(args.src, name), encoding='utf-8') as f:
            data = json.load(f)['data']
        for article in data:
            for paragraph in article['paragraphs']:
                pid = paragraph['id']
                if pid in corpus:
                    raise SystemExit(f'paragraph {pid!r} appears twice')
                text = paragraph['context'].strip()
                if text in texts:
                    raise SystemExit(f'paragraphs {texts[text]!r} and {pid!r} have the same text')
                texts[text] = pid
                doc = {'_id': 'p-' + sha1(pid)[:16], 'title': article.get('title', '').strip(), 'text': text,
                       'metadata': {'paragraph_id': pid}}
                corpus[pid] = doc
                for qa in paragraph['qas']:
                    qid = 'q-' + qa['id']
                    question = qa['question'].strip()
                    if not question:
                        continue
                    if qid in queries:
                        raise SystemExit(f'question {qid!r} appears twice')
                    queries[qid] = {'_id': qid, 'text': question}
                    qrels[split_of(pid)].append((qid, doc['_id']))

    ids = [d['_id'] for d in corpus.values()]
    if len(set(ids)) != len(ids):
        raise SystemExit('document id collision')

    os.makedirs(os.path.join(args.out, 'qrels'), exist_ok=True)
    with open(os.path.join(args.out, 'corpus.jsonl'), 'w', encoding='utf-8') as f:
        for d in corpus.values():
            f.write(json.dumps(d, ensure_ascii=False) + '\n')
    with open(os.path.join(args.out, 'queries.jsonl'), 'w', encoding='utf-8') as f:
        for q in queries.values():
            f.write(json.dumps(q, ensure_ascii=False) + '\n')
    for split, rows in qrels.items():
        with open(os.path.join(args.out, 'qrels', f'{split}.tsv'), 'w', encoding='utf-8') as f:
            f.write('query-id\tcorpus-id\tscore\n')
            for qid, did in rows:
                f.write(f'{qid}\t{did}\t1\n')

    print(f'docs={len(corpus)} queries={len(queries)} '
          + ' '.join(f'{s}: queries={len({q for q, _ in r})} documents={len({d for _, d in r})}'
                     for s, r in qrels.items()))


if __name__ == '__main__':
    main()
