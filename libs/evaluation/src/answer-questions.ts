/**
 * The answer-quality set of `npm run eval -- --answers`: questions over the bundled samples
 * (samples/quickstart, samples/handbook-site) and three MkDocs pages of the shared fixture
 * documents, each with the documents an answer may cite, plus questions the corpus cannot answer.
 * Documents are named by the file name the eval ingests them under (ANSWER_CORPUS).
 */

/** A document of the answer corpus: where it comes from (relative to the repository, or to the shared documents) and the name it is ingested under. */
export interface AnswerCorpusFile {
  fileName: string;
  /** `repo:` a path in this repository; `shared:` a path under the shared documents. */
  source: `repo:${string}` | `shared:${string}`;
}

export const ANSWER_CORPUS: AnswerCorpusFile[] = [
  { fileName: 'deploy-runbook.md', source: 'repo:samples/quickstart/deploy-runbook.md' },
  { fileName: 'interview-notes-ru.md', source: 'repo:samples/quickstart/interview-notes-ru.md' },
  { fileName: 'search-basics.md', source: 'repo:samples/quickstart/search-basics.md' },
  { fileName: 'handbook-index.md', source: 'repo:samples/handbook-site/docs/index.md' },
  { fileName: 'backups.md', source: 'repo:samples/handbook-site/docs/operations/backups.md' },
  {
    fileName: 'incident-response.md',
    source: 'repo:samples/handbook-site/docs/operations/incident-response.md',
  },
  { fileName: 'deploy-ru.md', source: 'repo:samples/handbook-site/docs/ru/deploy.md' },
  { fileName: 'search-zh.md', source: 'repo:samples/handbook-site/docs/zh/search.md' },
  { fileName: 'mkdocs-getting-started.md', source: 'shared:mkdocs/docs/getting-started.md' },
  { fileName: 'mkdocs-deploying.md', source: 'shared:mkdocs/docs/user-guide/deploying-your-docs.md' },
  { fileName: 'mkdocs-installation.md', source: 'shared:mkdocs/docs/user-guide/installation.md' },
];

export interface AnswerQuestion {
  question: string;
  /** Documents whose citation is correct; empty: out of domain, the right answer is a refusal. */
  expected: string[];
}

const RUNBOOK = 'deploy-runbook.md';
const DEPLOY_RU = 'deploy-ru.md';
const INCIDENTS = 'incident-response.md';
const BASICS = 'search-basics.md';
const SEARCH_ZH = 'search-zh.md';
const INTERVIEW = 'interview-notes-ru.md';
const BACKUPS = 'backups.md';
const GETTING_STARTED = 'mkdocs-getting-started.md';
const DEPLOYING = 'mkdocs-deploying.md';
const INSTALLATION = 'mkdocs-installation.md';

export const ANSWER_QUESTIONS: AnswerQuestion[] = [
  // Deploy runbook (quick start)
  { question: 'How do I roll back a release?', expected: [RUNBOOK, DEPLOY_RU, INCIDENTS] },
  { question: 'Which branch are releases shipped from?', expected: [RUNBOOK] },
  { question: 'On which day of the week do releases go out?', expected: [RUNBOOK, DEPLOY_RU] },
  { question: 'Does a rollback revert database migrations?', expected: [RUNBOOK] },
  { question: 'Who owns the rollback decision?', expected: [RUNBOOK] },
  { question: 'When should the on-call engineer escalate to the team lead?', expected: [RUNBOOK] },
  { question: 'What command rolls back to a previous version?', expected: [RUNBOOK, DEPLOY_RU] },
  { question: 'Where should I post after rolling back a release?', expected: [RUNBOOK, DEPLOY_RU] },
  {
    question: 'What does the pipeline do before it switches traffic to the new version?',
    expected: [RUNBOOK],
  },
  // Search basics (quick start)
  { question: 'How does Trove fuse keyword and vector search results?', expected: [BASICS, SEARCH_ZH] },
  { question: 'What constant does reciprocal rank fusion add to the rank?', expected: [BASICS] },
  { question: 'Can a question asked in English find a passage written in Russian?', expected: [BASICS] },
  { question: 'Which fields does the BM25 keyword search cover?', expected: [BASICS] },
  // Interview notes (Russian, quick start)
  { question: 'Что ускоряет индекс и что он замедляет?', expected: [INTERVIEW] },
  { question: 'Какие уровни изоляции транзакций бывают?', expected: [INTERVIEW] },
  { question: 'За какое время работает бинарный поиск?', expected: [INTERVIEW] },
  { question: 'Какая сложность у быстрой сортировки в худшем случае?', expected: [INTERVIEW] },
  { question: 'Что такое схема STAR для поведенческих вопросов?', expected: [INTERVIEW] },
  { question: 'Для каких запросов подходит B-дерево?', expected: [INTERVIEW] },
  { question: 'What is the worst-case complexity of quicksort?', expected: [INTERVIEW] },
  // Handbook: backups
  { question: 'When do database backups run?', expected: [BACKUPS] },
  { question: 'How long are backup snapshots kept?', expected: [BACKUPS] },
  { question: 'Can I restore a backup directly over production?', expected: [BACKUPS] },
  { question: 'What command restores a backup snapshot?', expected: [BACKUPS] },
  { question: 'How are backups verified?', expected: [BACKUPS] },
  // Handbook: incident response
  { question: 'What is the response time for a SEV1 incident?', expected: [INCIDENTS] },
  { question: 'What does a SEV2 incident mean?', expected: [INCIDENTS] },
  { question: 'What should happen in the first fifteen minutes of an incident?', expected: [INCIDENTS] },
  { question: 'When is the postmortem due after an incident?', expected: [INCIDENTS] },
  // Handbook: Russian and Chinese pages, the index
  { question: 'В какие дни выкатываются релизы?', expected: [DEPLOY_RU, RUNBOOK] },
  { question: 'Как откатить релиз?', expected: [DEPLOY_RU, RUNBOOK, INCIDENTS] },
  { question: 'Сколько времени занимает откат релиза?', expected: [DEPLOY_RU] },
  { question: 'Trove 的混合搜索使用哪些检索方法？', expected: [SEARCH_ZH, BASICS] },
  { question: '搜索结果的引用链接指向哪里？', expected: [SEARCH_ZH] },
  {
    question: 'Which handbook pages should I start with when something is on fire?',
    expected: ['handbook-index.md'],
  },
  // MkDocs fixture pages
  { question: 'How do I install MkDocs?', expected: [INSTALLATION, GETTING_STARTED] },
  { question: 'Which command starts the MkDocs development server?', expected: [GETTING_STARTED] },
  {
    question: 'How do I deploy MkDocs documentation to GitHub Pages?',
    expected: [DEPLOYING, GETTING_STARTED],
  },
  { question: 'How do I use a custom domain with GitHub Pages?', expected: [DEPLOYING] },
  { question: 'Which Python version does MkDocs need?', expected: [INSTALLATION] },
  { question: 'How do I build the static site with MkDocs?', expected: [GETTING_STARTED] },
  { question: 'How can I change the favicon of an MkDocs site?', expected: [GETTING_STARTED] },
  // Out of domain: the knowledge base does not hold these
  { question: 'Who painted the Mona Lisa?', expected: [] },
  { question: 'What is the capital of Peru?', expected: [] },
  { question: 'How do I bake sourdough bread?', expected: [] },
  { question: 'What is the boiling point of water at sea level?', expected: [] },
  { question: 'How many players are on a football team?', expected: [] },
  { question: 'Who wrote War and Peace?', expected: [] },
  { question: 'What is the best recipe for chocolate chip cookies?', expected: [] },
  { question: 'Кто выиграл чемпионат мира по футболу в 2018 году?', expected: [] },
  { question: 'Как приготовить борщ?', expected: [] },
  { question: 'Какая самая высокая гора в мире?', expected: [] },
  { question: '今天北京的天气怎么样？', expected: [] },
  { question: '长城有多长？', expected: [] },
];
