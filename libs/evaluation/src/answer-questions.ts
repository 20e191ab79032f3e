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
  { fileName: 'sensor-firmware.md', source: 'repo:libs/evaluation/fixtures/answers/sensor-firmware.md' },
  { fileName: 'office-guide-ru.md', source: 'repo:libs/evaluation/fixtures/answers/office-guide-ru.md' },
  { fileName: 'payroll-vendor.md', source: 'repo:libs/evaluation/fixtures/answers/payroll-vendor.md' },
  {
    fileName: 'load-test-rig-ru.md',
    source: 'repo:libs/evaluation/fixtures/answers/load-test-rig-ru.md',
  },
];

/** The kind of passage that holds the answer: the unit a good quote is made of. */
export type AnswerUnit = 'sentence' | 'code-line' | 'table-row' | 'list-item' | 'toggle-child';

export interface AnswerQuestion {
  question: string;
  /** Documents whose citation is correct; empty: out of domain, the right answer is a refusal. */
  expected: string[];
  /**
   * Strings a good quote contains (any one of them, case and spacing aside): the answer itself,
   * as the source writes it. Unset for questions written before quotes were scored.
   */
  answers?: string[];
  /** Where the answer sits in its document. */
  unit?: AnswerUnit;
  /** The question is asked in another language than the passage that answers it. */
  crossLingual?: boolean;
  /**
   * The answer sits in a child block: a toggle's child under a list item, a list item's child
   * item, or a database row's property (the list a row's properties render as).
   */
  nested?: boolean;
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
  ...quotedAnswerQuestions(),
  ...sentenceAnswerQuestions(),
  ...nestedAnswerQuestions(),
];

/**
 * Questions over the two structured fixture pages (libs/evaluation/fixtures/answers): each answer
 * is one code line, table row, list item or the reason inside a `<details>` toggle, asked in the
 * page's language and across languages, plus out-of-domain questions near those pages' topics.
 */
function quotedAnswerQuestions(): AnswerQuestion[] {
  const FIRMWARE = 'sensor-firmware.md';
  const OFFICE = 'office-guide-ru.md';
  const q = (
    question: string,
    expected: string,
    answers: string[],
    unit: AnswerUnit,
    crossLingual = false,
  ): AnswerQuestion => ({ question, expected: [expected], answers, unit, crossLingual });
  return [
    // English page, English questions
    q(
      'What is MAX_SEND_RETRIES set to in the sensor firmware?',
      FIRMWARE,
      ['MAX_SEND_RETRIES 7'],
      'code-line',
    ),
    q('How long is the firmware watchdog timeout?', FIRMWARE, ['WATCHDOG_TIMEOUT_S 45'], 'code-line'),
    q('At what baud rate does the sensor uplink run?', FIRMWARE, ['UPLINK_BAUD_RATE 115200'], 'code-line'),
    q('Which port does the staging MQTT broker listen on?', FIRMWARE, ['8884'], 'table-row'),
    q('Who owns the production environment of the sensor fleet?', FIRMWARE, ['Grace Okafor'], 'table-row'),
    q('How long must the firmware soak test run?', FIRMWARE, ['six hours'], 'list-item'),
    q('What key signs a firmware release image?', FIRMWARE, ['hardware security module'], 'list-item'),
    q('Why do the sensors buffer readings on the SD card?', FIRMWARE, ['uplink drops'], 'toggle-child'),
    q('Why did we choose MQTT over HTTP for sensor telemetry?', FIRMWARE, ['less battery'], 'toggle-child'),
    // Russian page, Russian questions
    q('Какой порт указан в настройках VPN?', OFFICE, ['port = 1194'], 'code-line'),
    q('Через какое время VPN отключается при простое?', OFFICE, ['idle_timeout = 900'], 'code-line'),
    q('На каком этаже переговорная Ладога?', OFFICE, ['Ладога | 4'], 'table-row'),
    q('Сколько мест в переговорной Онега?', OFFICE, ['Онега | 5 | 20'], 'table-row'),
    q('Где новому сотруднику забрать ноутбук?', OFFICE, ['IT-кабинете'], 'list-item'),
    q('У кого получить пропуск в первый день?', OFFICE, ['Марины Ковалёвой'], 'list-item'),
    q(
      'Почему обеды заказывают через чат, а не через портал?',
      OFFICE,
      ['до одиннадцати утра'],
      'toggle-child',
    ),
    q('Почему парковку разыгрывают по жребию?', OFFICE, ['мест всего двадцать'], 'toggle-child'),
    // Across languages: Russian questions about the English page, English ones about the Russian page
    q(
      'Сколько раз прошивка датчика повторяет отправку?',
      FIRMWARE,
      ['MAX_SEND_RETRIES 7'],
      'code-line',
      true,
    ),
    q('Какой порт у MQTT-брокера в staging?', FIRMWARE, ['8884'], 'table-row', true),
    q('Почему датчики сохраняют показания на SD-карту?', FIRMWARE, ['uplink drops'], 'toggle-child', true),
    q('Кто отвечает за production-окружение датчиков?', FIRMWARE, ['Grace Okafor'], 'table-row', true),
    q('Which DNS server does the office VPN use?', OFFICE, ['dns = 10.20.0.53'], 'code-line', true),
    q('How many seats does the Baikal meeting room have?', OFFICE, ['Байкал | 3 | 12'], 'table-row', true),
    q('Why is office parking assigned by lottery?', OFFICE, ['мест всего двадцать'], 'toggle-child', true),
    q('Where do new employees pick up their laptop?', OFFICE, ['IT-кабинете'], 'list-item', true),
    // More of each kind: English and Russian, and Chinese questions about both pages
    q('How often does the sensor firmware take a sample?', FIRMWARE, ['SAMPLE_INTERVAL_MS 250'], 'code-line'),
    q(
      'Which release channel is the firmware built for?',
      FIRMWARE,
      ['FIRMWARE_CHANNEL "stable"'],
      'code-line',
    ),
    q('Which port does the development MQTT broker use?', FIRMWARE, ['1883'], 'table-row'),
    q('Who owns the staging environment of the sensor fleet?', FIRMWARE, ['Tomasz Wójcik'], 'table-row'),
    q(
      'Which file holds the version I bump before a firmware release?',
      FIRMWARE,
      ['version.txt'],
      'list-item',
    ),
    q('Where are firmware release notes published?', FIRMWARE, ['#firmware channel'], 'list-item'),
    q('Какой сервер указан в настройках VPN?', OFFICE, ['vpn.lesnaya.example.ru'], 'code-line'),
    q('Какой протокол использует VPN в офисе?', OFFICE, ['protocol = udp'], 'code-line'),
    q('Есть ли проектор в переговорной Ладога?', OFFICE, ['Ладога | 4 | 6 | нет'], 'table-row'),
    q('Где подписать соглашение о неразглашении?', OFFICE, ['в отделе кадров'], 'list-item'),
    q('Какой инструктаж нужно пройти в первый день?', OFFICE, ['пожарной безопасности'], 'list-item'),
    q('До скольких часов кухня принимает заявки на обед?', OFFICE, ['до одиннадцати утра'], 'toggle-child'),
    q('Почему очередь на парковку не ведут по стажу?', OFFICE, ['сочли несправедливой'], 'toggle-child'),
    q('传感器固件的看门狗超时是多少秒？', FIRMWARE, ['WATCHDOG_TIMEOUT_S 45'], 'code-line', true),
    q('生产环境的 MQTT 代理使用哪个端口？', FIRMWARE, ['8883'], 'table-row', true),
    q('固件发布镜像用什么密钥签名？', FIRMWARE, ['hardware security module'], 'list-item', true),
    q('为什么传感器遥测选择 MQTT 而不是 HTTP？', FIRMWARE, ['less battery'], 'toggle-child', true),
    q('办公室 VPN 使用哪个端口？', OFFICE, ['port = 1194'], 'code-line', true),
    q('奥涅加会议室有多少个座位？', OFFICE, ['Онега | 5 | 20'], 'table-row', true),
    // Out of domain, near the fixture pages' topics
    { question: 'How do I calibrate a thermocouple?', expected: [] },
    { question: 'What is the default port of a PostgreSQL server?', expected: [] },
    { question: 'Which airline flies from Moscow to Kazan most often?', expected: [] },
    { question: 'Сколько стоит ремонт ноутбука?', expected: [] },
    { question: 'Как перевести деньги на карту другого банка?', expected: [] },
    { question: 'Почему небо голубое?', expected: [] },
    { question: '如何更换笔记本电脑的电池？', expected: [] },
    { question: '哪家航空公司从上海飞往成都的航班最多？', expected: [] },
  ];
}

/**
 * Questions whose answer is one sentence of the bundled samples, in English, Russian and Chinese,
 * each with the words a good quote holds.
 */
function sentenceAnswerQuestions(): AnswerQuestion[] {
  const q = (question: string, expected: string, answers: string[]): AnswerQuestion => ({
    question,
    expected: [expected],
    answers,
    unit: 'sentence',
  });
  return [
    q('What should you do first if error rates climb after a release?', RUNBOOK, ['roll back first']),
    q('How long is the last backup snapshot of each month kept?', BACKUPS, ['kept for a year']),
    q('What happens when a weekly backup verification fails?', BACKUPS, ['pages the on-call engineer']),
    q('Что нужно проверить перед выкаткой релиза?', DEPLOY_RU, ['сборка зелёная']),
    q('Для каких запросов подходит хеш-индекс?', INTERVIEW, ['только для точного совпадения']),
    q('Как уровень изоляции влияет на число блокировок?', INTERVIEW, ['тем больше блокировок']),
    q('Trove 用什么方法合并关键词检索和向量检索的结果？', SEARCH_ZH, ['倒数排名融合']),
    q('搜索结果的引用链接方便读者做什么？', SEARCH_ZH, ['核对答案的来源']),
  ];
}

/**
 * Questions over the two database-row pages (libs/evaluation/fixtures/answers: the property list a
 * Notion row renders as, then list items with child items and toggles): each answer is a property,
 * a list item's child or the reason in a toggle under a list item, asked in the page's language and
 * across languages (Russian and Chinese about the English page, English and Chinese about the
 * Russian one).
 */
function nestedAnswerQuestions(): AnswerQuestion[] {
  const PAYROLL = 'payroll-vendor.md';
  const RIG = 'load-test-rig-ru.md';
  const q = (
    question: string,
    expected: string,
    answers: string[],
    unit: AnswerUnit,
    crossLingual = false,
  ): AnswerQuestion => ({ question, expected: [expected], answers, unit, crossLingual, nested: true });
  return [
    // Database row properties
    q('Who is the account manager at our payroll provider?', PAYROLL, ['Hannah Schmidt'], 'list-item'),
    q(
      'Кто менеджер нашего аккаунта у провайдера расчёта зарплаты?',
      PAYROLL,
      ['Hannah Schmidt'],
      'list-item',
      true,
    ),
    q(
      'Какой срок уведомления в договоре с провайдером расчёта зарплаты?',
      PAYROLL,
      ['90 days'],
      'list-item',
      true,
    ),
    q('工资服务商的合同什么时候续约？', PAYROLL, ['2027-03-31'], 'list-item', true),
    q(
      'Кто исполнитель заявки на стенд для нагрузочного тестирования?',
      RIG,
      ['Алексей Воронцов'],
      'list-item',
    ),
    q('Who is assigned to the load-testing rig request?', RIG, ['Алексей Воронцов'], 'list-item', true),
    q('By what date is the load-testing rig request due?', RIG, ['2027-02-15'], 'list-item', true),
    // A list item's child item
    q('By when must expense claims be approved?', PAYROLL, ['before the 20th'], 'list-item'),
    q('Нужно ли сканировать чеки меньше 50 евро?', PAYROLL, ['need no scan'], 'list-item', true),
    q(
      'Куда писать, если менеджер аккаунта не ответил за рабочий день?',
      PAYROLL,
      ['support@lohnwerk.example'],
      'list-item',
      true,
    ),
    q('Чем стирают диски старых серверов перед передачей?', RIG, ['nwipe'], 'list-item'),
    q(
      'What tool wipes the disks of old servers before they are handed over?',
      RIG,
      ['nwipe'],
      'list-item',
      true,
    ),
    q(
      'When does a late server delivery get escalated to the IT director?',
      RIG,
      ['больше чем на неделю'],
      'list-item',
      true,
    ),
    // The reason in a toggle under a list item
    q(
      'Why does payroll now run on the last working day of the month?',
      PAYROLL,
      ['two working days to process'],
      'toggle-child',
    ),
    q(
      'Почему зарплату теперь выплачивают в последний рабочий день месяца?',
      PAYROLL,
      ['two working days to process'],
      'toggle-child',
      true,
    ),
    q('Why were paper payslips stopped?', PAYROLL, ['postal service lost'], 'toggle-child'),
    q('为什么不再发纸质工资单？', PAYROLL, ['postal service lost'], 'toggle-child', true),
    q('Зачем серверам стенда 256 ГБ памяти?', RIG, ['падал через двадцать минут'], 'toggle-child'),
    q(
      'Why is the load-testing rig built on servers with 256 GB of memory?',
      RIG,
      ['падал через двадцать минут'],
      'toggle-child',
      true,
    ),
    q(
      '为什么负载测试环境的服务器需要 256 GB 内存？',
      RIG,
      ['падал через двадцать минут'],
      'toggle-child',
      true,
    ),
  ];
}
