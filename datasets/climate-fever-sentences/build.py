#!/usr/bin/env python3
"""Convert the original CLIMATE-FEVER release into a BEIR-layout sentence-retrieval set.

Source: github.com/tdiggelm/climate-fever-dataset, dataset/climate-fever.jsonl
(commit 03de61617b10a5c1935f8e08bb0e8ac1ee775356), copied to original/climate-fever.jsonl.

Rule:
  corpus  = every distinct evidence sentence (keyed by its evidence_id "Article:n"),
            title = Wikipedia article, text = sentence; _id = "ev-" + sha1(evidence_id)[:16]
            (file-name safe; the original evidence_id is kept under "metadata").
  queries = every claim with at least one SUPPORTS or REFUTES evidence; _id = "q" + claim_id.
  qrels   = (claim, evidence) with evidence_label SUPPORTS or REFUTES, score 1.
            NOT_ENOUGH_INFO evidences stay in the corpus as (hard) distractors, unjudged.
  split   = int(sha1("climate-fever:" + claim_id), 16) % 3 == 0 -> test, else train.

Python 3 standard library only. Usage: python3 build.py [--src original/climate-fever.jsonl] [--out .]
"""
import argparse
import hashlib
import json
import os

RELEVANT = ('SUPPORTS', 'REFUTES')


def doc_id(evidence_id: str) -> str:
    return 'ev-' + hashlib.sha1(evidence_id.encode('utf-8')).hexdigest()[:16]


def split_of(claim_id: str) -> str:
    h = int(hashlib.sha1(('climate-fever:' + claim_id).encode('utf-8')).hexdigest(), 16)
    return 'test' if h % 3 == 0 else 'train'


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', default=os.path.join(here, 'original', 'climate-fever.jsonl'))
    ap.add_argument('--out', default=here)
    args = ap.parse_args()

    with open(args.src, encoding='utf-8') as f:
        claims = [json.loads(line) for line in f if line.strip()]

    corpus = {}  # evidence_id -> doc, in first-appearance order
    queries = []
    qrels = {'train': [], 'test': []}
    for c in claims:
        rel = []
        for e in c['evidences']:
            eid = e['evidence_id']
            d = {'_id': doc_id(eid), 'title': e['article'], 'text': e['evidence'],
                 'metadata': {'evidence_id': eid}}
            if eid in corpus:
                old = corpus[eid]
                if (old['title'], old['text']) != (d['title'], d['text']):
                    raise SystemExit(f'evidence {eid!r} has two different texts')
            else:
                corpus[eid] = d
            if e['evidence_label'] in RELEVANT and d['_id'] not in rel:
                rel.append(d['_id'])
        if not rel:
            continue
        qid = 'q' + c['claim_id']
        queries.append({'_id': qid, 'text': c['claim'],
                        'metadata': {'claim_label': c['claim_label']}})
        qrels[split_of(c['claim_id'])].extend((qid, r) for r in rel)

    ids = [d['_id'] for d in corpus.values()]
    if len(set(ids)) != len(ids):
        raise SystemExit('document id collision')

    os.makedirs(os.path.join(args.out, 'qrels'), exist_ok=True)
    with open(os.path.join(args.out, 'corpus.jsonl'), 'w', encoding='utf-8') as f:
        for d in corpus.values():
            f.write(json.dumps(d, ensure_ascii=False) + '\n')
    with open(os.path.join(args.out, 'queries.jsonl'), 'w', encoding='utf-8') as f:
        for q in queries:
            f.write(json.dumps(q, ensure_ascii=False) + '\n')
    for split, rows in qrels.items():
        with open(os.path.join(args.out, 'qrels', f'{split}.tsv'), 'w', encoding='utf-8') as f:
            f.write('query-id\tcorpus-id\tscore\n')
            for qid, did in rows:
                f.write(f'{qid}\t{did}\t1\n')

    print(f'docs={len(corpus)} queries={len(queries)} '
          + ' '.join(f'{s}: queries={len({q for q, _ in r})} qrels={len(r)}' for s, r in qrels.items()))


if __name__ == '__main__':
    main()
