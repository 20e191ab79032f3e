import { stableId } from './ids';
import type {
  ApiColor,
  BlockInput,
  DatabaseInput,
  PageInput,
  PropertyValueInput,
  RichTextInput,
  RichTextItemInput,
  Workspace,
} from './workspace';

/** All generated times lie at or after this instant. */
export const DEFAULT_BASE_DATE = '2026-10-01T00:00:00Z';
/** The integration token of the default workspace. */
export const DEFAULT_TOKEN = 'ntn_trove_emulator_4f7c2a91d3e85b60a1c9f2e7d4b8a35c0e6f1d29';

const BASE = Date.parse(DEFAULT_BASE_DATE);
const DAY = 86_400_000;

// ---- deterministic helpers -------------------------------------------------------------------------

/** mulberry32: a small seeded generator, so the workspace is identical on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const id = (label: string) => stableId(`trove-default/${label}`);

// ---- rich text and block builders -------------------------------------------------------------------

const t = (
  text: string,
  extra: Omit<Extract<RichTextItemInput, { text: string }>, 'text'> = {},
): RichTextItemInput => ({
  text,
  ...extra,
});
const bold = (text: string) => t(text, { bold: true });
const italic = (text: string) => t(text, { italic: true });
const code = (text: string) => t(text, { code: true });
const link = (text: string, url: string) => t(text, { link: url });
const mentionPage = (page: string): RichTextItemInput => ({ mention: { page } });
const mentionUser = (user: string): RichTextItemInput => ({ mention: { user } });
const mentionDate = (start: string): RichTextItemInput => ({ mention: { date: { start } } });
const eq = (expression: string): RichTextItemInput => ({ equation: expression });

const p = (text: RichTextInput, children?: BlockInput[]): BlockInput => ({
  type: 'paragraph',
  text,
  children,
});
const h1 = (text: RichTextInput): BlockInput => ({ type: 'heading_1', text });
const h2 = (text: RichTextInput): BlockInput => ({ type: 'heading_2', text });
const h3 = (text: RichTextInput, children?: BlockInput[]): BlockInput =>
  children ? { type: 'heading_3', text, toggleable: true, children } : { type: 'heading_3', text };
const bullet = (text: RichTextInput, children?: BlockInput[]): BlockInput => ({
  type: 'bulleted_list_item',
  text,
  children,
});
const num = (text: RichTextInput, children?: BlockInput[]): BlockInput => ({
  type: 'numbered_list_item',
  text,
  children,
});
const todo = (text: RichTextInput, checked = false, children?: BlockInput[]): BlockInput => ({
  type: 'to_do',
  text,
  checked,
  children,
});
const toggle = (text: RichTextInput, children: BlockInput[]): BlockInput => ({
  type: 'toggle',
  text,
  children,
});
const quote = (text: RichTextInput): BlockInput => ({ type: 'quote', text });
const callout = (
  text: RichTextInput,
  icon = '💡',
  color: ApiColor = 'gray_background',
  children?: BlockInput[],
) => ({ type: 'callout', text, icon, color, children }) as BlockInput;
const codeBlock = (source: string, language: string, caption?: string): BlockInput => ({
  type: 'code',
  code: source,
  language,
  caption,
});
const equation = (expression: string): BlockInput => ({ type: 'equation', expression });
const divider = (): BlockInput => ({ type: 'divider' });
const table = (rows: string[][], hasColumnHeader = true, hasRowHeader = false): BlockInput => ({
  type: 'table',
  hasColumnHeader,
  hasRowHeader,
  rows,
});
const columns = (...cols: BlockInput[][]): BlockInput => ({
  type: 'column_list',
  columns: cols.map((children) => ({ children })),
});
const childPage = (pageId: string): BlockInput => ({ type: 'child_page', pageId });
const childDatabase = (databaseId: string): BlockInput => ({ type: 'child_database', databaseId });
const linkToPage = (pageId: string): BlockInput => ({ type: 'link_to_page', pageId });
const bookmark = (url: string, caption?: string): BlockInput => ({ type: 'bookmark', url, caption });
const embed = (url: string, caption?: string): BlockInput => ({ type: 'embed', url, caption });
const image = (source: { file: string } | { external: string }, caption?: string): BlockInput => ({
  type: 'image',
  source,
  caption,
});
const fileBlock = (source: { file: string } | { external: string }, caption?: string): BlockInput => ({
  type: 'file',
  source,
  caption,
});
const pdf = (source: { file: string } | { external: string }, caption?: string): BlockInput => ({
  type: 'pdf',
  source,
  caption,
});

// ---- people ---------------------------------------------------------------------------------------------

const USERS = [
  { id: id('user/anna'), name: 'Анна Смирнова', email: 'anna.smirnova@trove.example' },
  { id: id('user/dmitry'), name: 'Дмитрий Козлов', email: 'dmitry.kozlov@trove.example' },
  { id: id('user/maria'), name: 'Maria Garcia', email: 'maria.garcia@trove.example' },
  { id: id('user/james'), name: 'James Wilson', email: 'james.wilson@trove.example' },
  { id: id('user/elena'), name: 'Елена Петрова', email: 'elena.petrova@trove.example' },
];
const [ANNA, DMITRY, MARIA, JAMES, ELENA] = USERS.map((u) => u.id);

/** Ids of the default workspace's landmarks, for tests that need a particular page, block or database. */
export const DEFAULT_IDS = {
  hub: id('page/interview-hub'),
  algorithms: id('page/algorithms'),
  databases: id('page/databases'),
  systemDesign: id('page/system-design'),
  behavioral: id('page/behavioral'),
  /** More than 100 top-level blocks. */
  cheatsheet: id('page/cheatsheet'),
  handbook: id('page/handbook'),
  runbooks: id('page/runbooks'),
  onboarding: id('page/onboarding'),
  /** Holds a reference to the synced block of the Runbooks page. */
  onCallBasics: id('page/onboarding/on-call-basics'),
  architectureDecisions: id('page/architecture-decisions'),
  meetings: id('page/meetings'),
  /** Shared, top-level, in the trash. */
  trashedPage: id('page/old-deployment-guide'),
  /** Not shared with the integration; linked (link_to_page, mention) from the Onboarding page. */
  unsharedPage: id('page/salary-bands'),
  questionsDatabase: id('db/questions'),
  questionsDataSource: id('ds/questions'),
  /** A row related to 30 questions (the page object shows 25 and `has_more`). */
  summaryQuestionRow: id('row/question/summary'),
  adrDatabase: id('db/adrs'),
  adrDataSource: id('ds/adrs'),
  /** The ADR-007 row: the only path to the benchmark page. */
  adr007Row: id('row/adr/6'),
  /** Reachable only through the ADR-007 database row. */
  rowOnlyPage: id('page/adr-007-benchmark'),
  /** A database with two data sources. */
  trackerDatabase: id('db/tracker'),
  tasksDataSource: id('ds/tasks'),
  bugsDataSource: id('ds/bugs'),
  /** The original synced block (on the Runbooks page). */
  syncedOriginal: id('block/synced-oncall'),
  users: {
    anna: id('user/anna'),
    dmitry: id('user/dmitry'),
    maria: id('user/maria'),
    james: id('user/james'),
    elena: id('user/elena'),
  },
};

// ---- content -----------------------------------------------------------------------------------------------

interface AlgorithmTopic {
  slug: string;
  title: string;
  idea: string;
  points: string[];
  time: string;
  space: string;
  recurrence?: string;
  language: string;
  snippet: string;
  problems: string[];
  wiki?: string;
}

const ALGORITHMS: AlgorithmTopic[] = [
  {
    slug: 'binary-search',
    title: 'Бинарный поиск',
    idea: 'Поиск в отсортированном массиве делением отрезка пополам; работает для любого монотонного предиката.',
    points: [
      'Инвариант: ответ всегда лежит в полуинтервале [lo, hi)',
      'mid = lo + (hi - lo) / 2 — без переполнения',
      'Бинарный поиск по ответу: минимальная скорость, при которой успеваем',
    ],
    time: 'O(log n)',
    space: 'O(1)',
    recurrence: 'T(n) = T(n/2) + O(1)',
    language: 'python',
    snippet:
      'def lower_bound(a, x):\n    lo, hi = 0, len(a)\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if a[mid] < x:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo',
    problems: ['Search Insert Position', 'Koko Eating Bananas', 'Find Minimum in Rotated Sorted Array'],
    wiki: 'https://en.wikipedia.org/wiki/Binary_search_algorithm',
  },
  {
    slug: 'two-pointers',
    title: 'Два указателя',
    idea: 'Два индекса движутся навстречу или в одну сторону, сокращая перебор пар с O(n²) до O(n).',
    points: [
      'Массив должен быть отсортирован, если указатели идут навстречу',
      'Быстрый и медленный указатель находят цикл в списке',
      'Следите, чтобы каждый указатель двигался монотонно',
    ],
    time: 'O(n)',
    space: 'O(1)',
    language: 'typescript',
    snippet:
      'function twoSum(sorted: number[], target: number): [number, number] | null {\n  let i = 0, j = sorted.length - 1;\n  while (i < j) {\n    const s = sorted[i] + sorted[j];\n    if (s === target) return [i, j];\n    s < target ? i++ : j--;\n  }\n  return null;\n}',
    problems: ['Two Sum II', 'Container With Most Water', '3Sum'],
  },
  {
    slug: 'sliding-window',
    title: 'Скользящее окно',
    idea: 'Поддерживаем окно [l, r] и агрегат по нему; расширяем правую границу и сжимаем левую.',
    points: [
      'Подходит для подмассивов и подстрок с монотонным условием',
      'Счётчик символов в окне — хеш-таблица или массив на 26/128 элементов',
      'Каждый элемент входит и выходит из окна ровно один раз',
    ],
    time: 'O(n)',
    space: 'O(k)',
    language: 'python',
    snippet:
      'def longest_unique(s):\n    seen, l, best = {}, 0, 0\n    for r, ch in enumerate(s):\n        if seen.get(ch, -1) >= l:\n            l = seen[ch] + 1\n        seen[ch] = r\n        best = max(best, r - l + 1)\n    return best',
    problems: [
      'Longest Substring Without Repeating Characters',
      'Minimum Window Substring',
      'Sliding Window Maximum',
    ],
  },
  {
    slug: 'hash-tables',
    title: 'Хеш-таблицы',
    idea: 'Ассоциативный массив с доступом за O(1) в среднем: хеш-функция, бакеты и разрешение коллизий.',
    points: [
      'Цепочки против открытой адресации',
      'Коэффициент заполнения и рехеширование',
      'Худший случай O(n) при плохой хеш-функции или атаке',
    ],
    time: 'O(1) в среднем',
    space: 'O(n)',
    language: 'go',
    snippet:
      "func groupAnagrams(words []string) [][]string {\n\tgroups := map[[26]int][]string{}\n\tfor _, w := range words {\n\t\tvar key [26]int\n\t\tfor _, c := range w {\n\t\t\tkey[c-'a']++\n\t\t}\n\t\tgroups[key] = append(groups[key], w)\n\t}\n\tout := [][]string{}\n\tfor _, g := range groups {\n\t\tout = append(out, g)\n\t}\n\treturn out\n}",
    problems: ['Group Anagrams', 'Longest Consecutive Sequence', 'Subarray Sum Equals K'],
    wiki: 'https://en.wikipedia.org/wiki/Hash_table',
  },
  {
    slug: 'heaps',
    title: 'Кучи и очереди с приоритетом',
    idea: 'Двоичная куча даёт минимум за O(1) и вставку/извлечение за O(log n).',
    points: [
      'Top-K элементов: куча размера k',
      'Слияние k отсортированных списков',
      'Медиана потока: две кучи',
    ],
    time: 'O(log n) на операцию',
    space: 'O(n)',
    recurrence: 'h = \\lfloor \\log_2 n \\rfloor',
    language: 'python',
    snippet:
      'import heapq\n\ndef top_k(nums, k):\n    heap = []\n    for x in nums:\n        heapq.heappush(heap, x)\n        if len(heap) > k:\n            heapq.heappop(heap)\n    return sorted(heap, reverse=True)',
    problems: ['Kth Largest Element in an Array', 'Merge k Sorted Lists', 'Find Median from Data Stream'],
  },
  {
    slug: 'trees',
    title: 'Деревья и обходы',
    idea: 'Прямой, симметричный и обратный обходы; рекурсия против явного стека.',
    points: [
      'Симметричный обход BST даёт отсортированную последовательность',
      'Высота дерева определяет глубину рекурсии',
      'Обход в ширину — очередь, по уровням',
    ],
    time: 'O(n)',
    space: 'O(h)',
    language: 'typescript',
    snippet:
      'function inorder(root: TreeNode | null): number[] {\n  const out: number[] = [], stack: TreeNode[] = [];\n  let cur = root;\n  while (cur || stack.length) {\n    while (cur) { stack.push(cur); cur = cur.left; }\n    cur = stack.pop()!;\n    out.push(cur.val);\n    cur = cur.right;\n  }\n  return out;\n}',
    problems: ['Binary Tree Level Order Traversal', 'Validate Binary Search Tree', 'Lowest Common Ancestor'],
  },
  {
    slug: 'graphs-bfs-dfs',
    title: 'Графы: BFS и DFS',
    idea: 'Поиск в ширину находит кратчайшие пути в невзвешенном графе, поиск в глубину — компоненты и циклы.',
    points: [
      'Список смежности вместо матрицы для разреженных графов',
      'Отмечайте вершину посещённой при добавлении в очередь',
      'Цвета вершин для поиска цикла в орграфе',
    ],
    time: 'O(V + E)',
    space: 'O(V)',
    language: 'python',
    snippet:
      'from collections import deque\n\ndef bfs(graph, start):\n    dist = {start: 0}\n    q = deque([start])\n    while q:\n        v = q.popleft()\n        for u in graph[v]:\n            if u not in dist:\n                dist[u] = dist[v] + 1\n                q.append(u)\n    return dist',
    problems: ['Number of Islands', 'Rotting Oranges', 'Course Schedule'],
    wiki: 'https://en.wikipedia.org/wiki/Breadth-first_search',
  },
  {
    slug: 'dijkstra',
    title: 'Кратчайшие пути: Дейкстра',
    idea: 'Жадно извлекаем ближайшую вершину из кучи; работает только с неотрицательными весами.',
    points: [
      'Ленивое удаление устаревших записей из кучи',
      'Отрицательные веса — Беллман-Форд',
      'A* добавляет эвристику к расстоянию',
    ],
    time: 'O((V + E) log V)',
    space: 'O(V)',
    recurrence: 'd(v) = \\min_{(u,v) \\in E} (d(u) + w(u, v))',
    language: 'python',
    snippet:
      'import heapq\n\ndef dijkstra(graph, s):\n    dist = {s: 0}\n    heap = [(0, s)]\n    while heap:\n        d, v = heapq.heappop(heap)\n        if d > dist[v]:\n            continue\n        for u, w in graph[v]:\n            if d + w < dist.get(u, float("inf")):\n                dist[u] = d + w\n                heapq.heappush(heap, (d + w, u))\n    return dist',
    problems: ['Network Delay Time', 'Cheapest Flights Within K Stops', 'Path With Minimum Effort'],
  },
  {
    slug: 'topological-sort',
    title: 'Топологическая сортировка',
    idea: 'Линейный порядок вершин ориентированного ациклического графа: алгоритм Кана или DFS.',
    points: [
      'Полустепени захода и очередь вершин с нулевой степенью',
      'Если обработаны не все вершины — есть цикл',
      'Применение: сборка зависимостей, планирование задач',
    ],
    time: 'O(V + E)',
    space: 'O(V)',
    language: 'typescript',
    snippet:
      'function topoSort(n: number, edges: [number, number][]): number[] | null {\n  const indeg = Array(n).fill(0), adj: number[][] = Array.from({ length: n }, () => []);\n  for (const [a, b] of edges) { adj[a].push(b); indeg[b]++; }\n  const q = indeg.flatMap((d, v) => (d === 0 ? [v] : []));\n  const order: number[] = [];\n  while (q.length) {\n    const v = q.shift()!;\n    order.push(v);\n    for (const u of adj[v]) if (--indeg[u] === 0) q.push(u);\n  }\n  return order.length === n ? order : null;\n}',
    problems: ['Course Schedule II', 'Alien Dictionary', 'Parallel Courses'],
  },
  {
    slug: 'union-find',
    title: 'Система непересекающихся множеств',
    idea: 'Union-Find с эвристиками сжатия путей и объединения по рангу работает почти за O(1).',
    points: [
      'Сжатие путей в find',
      'Объединение меньшего дерева к большему',
      'Алгоритм Краскала для минимального остова',
    ],
    time: 'O(α(n))',
    space: 'O(n)',
    language: 'python',
    snippet:
      'class DSU:\n    def __init__(self, n):\n        self.parent = list(range(n))\n        self.size = [1] * n\n\n    def find(self, x):\n        while self.parent[x] != x:\n            self.parent[x] = self.parent[self.parent[x]]\n            x = self.parent[x]\n        return x\n\n    def union(self, a, b):\n        a, b = self.find(a), self.find(b)\n        if a == b:\n            return False\n        if self.size[a] < self.size[b]:\n            a, b = b, a\n        self.parent[b] = a\n        self.size[a] += self.size[b]\n        return True',
    problems: ['Number of Provinces', 'Redundant Connection', 'Accounts Merge'],
  },
  {
    slug: 'dynamic-programming',
    title: 'Динамическое программирование',
    idea: 'Разбиваем задачу на перекрывающиеся подзадачи и запоминаем ответы: сверху вниз или снизу вверх.',
    points: [
      'Определите состояние и переход',
      'Порядок вычисления должен уважать зависимости',
      'Часто память можно сжать до двух строк',
    ],
    time: 'O(n · m)',
    space: 'O(m)',
    recurrence: 'dp[i][j] = \\max(dp[i-1][j],\\ dp[i-1][j-w_i] + v_i)',
    language: 'python',
    snippet:
      'def knapsack(items, capacity):\n    dp = [0] * (capacity + 1)\n    for weight, value in items:\n        for c in range(capacity, weight - 1, -1):\n            dp[c] = max(dp[c], dp[c - weight] + value)\n    return dp[capacity]',
    problems: ['Climbing Stairs', 'Longest Increasing Subsequence', 'Edit Distance'],
    wiki: 'https://en.wikipedia.org/wiki/Dynamic_programming',
  },
  {
    slug: 'backtracking',
    title: 'Перебор с возвратом',
    idea: 'Строим решение по шагам и откатываемся, как только частичное решение перестаёт быть допустимым.',
    points: [
      'Отсечения сокращают дерево перебора',
      'Состояние меняем и восстанавливаем симметрично',
      'Генерация перестановок, подмножеств, расстановка ферзей',
    ],
    time: 'O(k · n!) в худшем случае',
    space: 'O(n)',
    language: 'typescript',
    snippet:
      'function subsets(nums: number[]): number[][] {\n  const out: number[][] = [], cur: number[] = [];\n  const go = (i: number) => {\n    if (i === nums.length) { out.push([...cur]); return; }\n    go(i + 1);\n    cur.push(nums[i]);\n    go(i + 1);\n    cur.pop();\n  };\n  go(0);\n  return out;\n}',
    problems: ['Subsets', 'Permutations', 'N-Queens'],
  },
  {
    slug: 'greedy',
    title: 'Жадные алгоритмы',
    idea: 'На каждом шаге берём локально лучший вариант; нужно доказать, что это ведёт к глобальному оптимуму.',
    points: [
      'Аргумент обмена для доказательства',
      'Сортировка по концу интервала',
      'Контрпример опровергает жадность быстрее доказательства',
    ],
    time: 'O(n log n)',
    space: 'O(1)',
    language: 'python',
    snippet:
      'def max_non_overlapping(intervals):\n    intervals.sort(key=lambda iv: iv[1])\n    count, end = 0, float("-inf")\n    for start, finish in intervals:\n        if start >= end:\n            count += 1\n            end = finish\n    return count',
    problems: ['Jump Game', 'Non-overlapping Intervals', 'Gas Station'],
  },
  {
    slug: 'tries',
    title: 'Префиксные деревья',
    idea: 'Trie хранит строки по символам и отвечает на запросы по префиксу за O(длины).',
    points: ['Узел: массив детей или словарь', 'Флаг конца слова', 'Автодополнение и поиск слов в сетке'],
    time: 'O(L)',
    space: 'O(Σ · N)',
    language: 'go',
    snippet:
      'type Trie struct {\n\tchildren map[rune]*Trie\n\tend      bool\n}\n\nfunc (t *Trie) Insert(word string) {\n\tnode := t\n\tfor _, c := range word {\n\t\tif node.children == nil {\n\t\t\tnode.children = map[rune]*Trie{}\n\t\t}\n\t\tif node.children[c] == nil {\n\t\t\tnode.children[c] = &Trie{}\n\t\t}\n\t\tnode = node.children[c]\n\t}\n\tnode.end = true\n}',
    problems: ['Implement Trie', 'Word Search II', 'Design Search Autocomplete System'],
  },
  {
    slug: 'sorting',
    title: 'Сортировки',
    idea: 'Быстрая, слиянием, пирамидальная и подсчётом: устойчивость, память и худший случай.',
    points: [
      'Нижняя оценка сравнений Ω(n log n)',
      'Устойчивость важна для сортировки по нескольким ключам',
      'Timsort в Python и Java для объектов',
    ],
    time: 'O(n log n)',
    space: 'O(n)',
    recurrence: 'T(n) = 2T(n/2) + O(n)',
    language: 'python',
    snippet:
      'def merge_sort(a):\n    if len(a) <= 1:\n        return a\n    mid = len(a) // 2\n    left, right = merge_sort(a[:mid]), merge_sort(a[mid:])\n    out, i, j = [], 0, 0\n    while i < len(left) and j < len(right):\n        if left[i] <= right[j]:\n            out.append(left[i]); i += 1\n        else:\n            out.append(right[j]); j += 1\n    return out + left[i:] + right[j:]',
    problems: ['Sort Colors', 'Merge Intervals', 'Largest Number'],
    wiki: 'https://en.wikipedia.org/wiki/Merge_sort',
  },
  {
    slug: 'bit-manipulation',
    title: 'Битовые операции',
    idea: 'XOR, маски и сдвиги решают задачи на подмножества и уникальные элементы без дополнительной памяти.',
    points: [
      'x & (x - 1) снимает младший единичный бит',
      'XOR всех элементов находит непарный',
      'Перебор подмножеств маской',
    ],
    time: 'O(n)',
    space: 'O(1)',
    language: 'c',
    snippet:
      'int popcount(unsigned x) {\n    int n = 0;\n    while (x) {\n        x &= x - 1;\n        n++;\n    }\n    return n;\n}',
    problems: ['Single Number', 'Counting Bits', 'Reverse Bits'],
  },
  {
    slug: 'string-algorithms',
    title: 'Строковые алгоритмы: KMP и Z-функция',
    idea: 'Префикс-функция позволяет искать подстроку за линейное время без откатов по тексту.',
    points: [
      'π[i] — длина наибольшего собственного префикса-суффикса',
      'Z-функция считает совпадения с префиксом',
      'Хеширование Рабина-Карпа — вероятностная альтернатива',
    ],
    time: 'O(n + m)',
    space: 'O(m)',
    language: 'python',
    snippet:
      'def prefix_function(s):\n    pi = [0] * len(s)\n    for i in range(1, len(s)):\n        k = pi[i - 1]\n        while k and s[i] != s[k]:\n            k = pi[k - 1]\n        if s[i] == s[k]:\n            k += 1\n        pi[i] = k\n    return pi',
    problems: ['Find the Index of the First Occurrence', 'Repeated Substring Pattern', 'Shortest Palindrome'],
  },
  {
    slug: 'segment-tree',
    title: 'Дерево отрезков',
    idea: 'Запросы на отрезке и точечные обновления за O(log n); ленивое распространение для обновлений на отрезке.',
    points: [
      'Массив размера 4n',
      'Ассоциативная операция: сумма, минимум, НОД',
      'Дерево Фенвика проще, если нужна только сумма',
    ],
    time: 'O(log n)',
    space: 'O(n)',
    language: 'cpp',
    snippet:
      'struct SegTree {\n  int n; vector<long long> t;\n  SegTree(int n) : n(n), t(2 * n) {}\n  void update(int p, long long v) {\n    for (t[p += n] = v; p > 1; p >>= 1) t[p >> 1] = t[p] + t[p ^ 1];\n  }\n  long long query(int l, int r) {\n    long long res = 0;\n    for (l += n, r += n; l < r; l >>= 1, r >>= 1) {\n      if (l & 1) res += t[l++];\n      if (r & 1) res += t[--r];\n    }\n    return res;\n  }\n};',
    problems: ['Range Sum Query - Mutable', 'Count of Smaller Numbers After Self', 'My Calendar III'],
  },
];

interface DatabaseTopic {
  slug: string;
  title: string;
  summary: string;
  points: string[];
  sql: string;
  media?: BlockInput;
  deepDive?: boolean;
}

const DATABASE_TOPICS: DatabaseTopic[] = [
  {
    slug: 'indexes',
    title: 'Индексы: B-tree, hash, GIN',
    summary:
      'Индекс ускоряет чтение ценой записи и памяти; B-tree подходит для диапазонов, GIN — для массивов и полнотекста.',
    points: [
      'Покрывающие индексы и INCLUDE',
      'Порядок колонок в составном индексе',
      'Частичные индексы для горячих подмножеств',
    ],
    sql: 'CREATE INDEX CONCURRENTLY orders_user_created_idx\n    ON orders (user_id, created_at DESC)\n    INCLUDE (status);',
    media: image({ file: 'btree-index.png' }, 'Структура B-дерева'),
    deepDive: true,
  },
  {
    slug: 'transactions-acid',
    title: 'Транзакции и ACID',
    summary:
      'Атомарность, согласованность, изоляция и долговечность; WAL обеспечивает долговечность и восстановление.',
    points: [
      'Атомарность: всё или ничего',
      'Долговечность через журнал упреждающей записи',
      'Согласованность — ответственность приложения и ограничений',
    ],
    sql: 'BEGIN;\nUPDATE accounts SET balance = balance - 100 WHERE id = 1;\nUPDATE accounts SET balance = balance + 100 WHERE id = 2;\nCOMMIT;',
    deepDive: true,
  },
  {
    slug: 'isolation-levels',
    title: 'Уровни изоляции',
    summary: 'Read committed, repeatable read и serializable: какие аномалии допускает каждый уровень.',
    points: [
      'Грязное чтение, неповторяющееся чтение, фантомы',
      'Write skew на repeatable read',
      'SSI в PostgreSQL',
    ],
    sql: 'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;\nSELECT count(*) FROM doctors WHERE on_call;\n-- при конфликте: ERROR 40001, повторить транзакцию',
    deepDive: true,
  },
  {
    slug: 'mvcc',
    title: 'MVCC в PostgreSQL',
    summary: 'Каждая версия строки хранит xmin/xmax; читатели не блокируют писателей, но нужен VACUUM.',
    points: [
      'Снимок транзакции и видимость версий',
      'Раздувание таблиц и autovacuum',
      'Wraparound идентификаторов транзакций',
    ],
    sql: 'SELECT xmin, xmax, * FROM accounts WHERE id = 1;\nVACUUM (VERBOSE, ANALYZE) accounts;',
    media: pdf({ file: 'postgres-mvcc-internals.pdf' }, 'Доклад о внутреннем устройстве MVCC'),
  },
  {
    slug: 'query-plans',
    title: 'Планы запросов и EXPLAIN',
    summary: 'EXPLAIN ANALYZE показывает реальный план: типы соединений, оценки строк и время узлов.',
    points: [
      'Seq Scan не всегда плохо',
      'Nested Loop, Hash Join, Merge Join',
      'Расхождение оценки и факта — устаревшая статистика',
    ],
    sql: "EXPLAIN (ANALYZE, BUFFERS)\nSELECT o.id, u.email\nFROM orders o JOIN users u ON u.id = o.user_id\nWHERE o.created_at > now() - interval '1 day';",
    media: fileBlock({ file: 'explain-examples.sql' }, 'Примеры планов'),
  },
  {
    slug: 'replication',
    title: 'Репликация',
    summary: 'Синхронная и асинхронная репликация, лаг реплики, чтение своих записей.',
    points: [
      'Физическая (потоковая) и логическая репликация',
      'Отставание реплики и read-your-writes',
      'Автоматический failover: Patroni',
    ],
    sql: 'SELECT client_addr, state, replay_lag\nFROM pg_stat_replication;',
    deepDive: true,
  },
  {
    slug: 'sharding',
    title: 'Шардирование',
    summary:
      'Горизонтальное разбиение данных по ключу: хеш, диапазоны, директория; решардинг — самая дорогая часть.',
    points: ['Выбор ключа шардирования', 'Консистентное хеширование', 'Кросс-шардовые запросы и транзакции'],
    sql: "-- Citus\nSELECT create_distributed_table('events', 'tenant_id');",
    media: image(
      { external: 'https://upload.wikimedia.org/wikipedia/commons/5/53/Consistent_hashing.svg' },
      'Кольцо консистентного хеширования',
    ),
  },
  {
    slug: 'normalization',
    title: 'Нормализация',
    summary:
      '1НФ–3НФ и НФБК убирают аномалии обновления; денормализация — осознанный компромисс ради чтения.',
    points: [
      'Функциональные зависимости',
      'Аномалии вставки, обновления, удаления',
      'Материализованные представления вместо ручной денормализации',
    ],
    sql: 'CREATE MATERIALIZED VIEW order_totals AS\nSELECT user_id, sum(amount) AS total\nFROM orders GROUP BY user_id;',
  },
  {
    slug: 'lsm-vs-btree',
    title: 'LSM-деревья против B-деревьев',
    summary: 'LSM оптимизированы под запись (memtable, SSTable, компакция), B-деревья — под чтение.',
    points: [
      'Усиление записи и чтения',
      'Bloom-фильтры ускоряют поиск в SSTable',
      'RocksDB, Cassandra, ClickHouse MergeTree',
    ],
    sql: '-- ClickHouse\nCREATE TABLE events (ts DateTime, user_id UInt64, kind String)\nENGINE = MergeTree ORDER BY (user_id, ts);',
  },
  {
    slug: 'locks',
    title: 'Блокировки и дедлоки',
    summary: 'Строчные и табличные блокировки, SELECT FOR UPDATE, обнаружение взаимоблокировок.',
    points: [
      'Всегда берите блокировки в одном порядке',
      'SKIP LOCKED для очередей задач',
      'advisory locks для координации',
    ],
    sql: "SELECT id FROM jobs\nWHERE state = 'queued'\nORDER BY id\nFOR UPDATE SKIP LOCKED\nLIMIT 10;",
  },
  {
    slug: 'cap-pacelc',
    title: 'CAP и PACELC',
    summary:
      'При разделении сети выбираем согласованность или доступность; без разделения — задержку или согласованность.',
    points: ['Линеаризуемость против eventual consistency', 'Кворумы: R + W > N', 'Spanner и TrueTime'],
    sql: '-- Cassandra\nCONSISTENCY QUORUM;\nSELECT * FROM users WHERE id = 42;',
  },
  {
    slug: 'connection-pooling',
    title: 'Пулы соединений',
    summary: 'Соединение с PostgreSQL — процесс; PgBouncer в режиме транзакций экономит память и CPU.',
    points: [
      'Режимы session, transaction, statement',
      'Подготовленные выражения и transaction pooling',
      'Формула размера пула',
    ],
    sql: 'SHOW max_connections;\nSELECT count(*) FROM pg_stat_activity;',
  },
  {
    slug: 'elasticsearch-basics',
    title: 'Elasticsearch: инвертированный индекс',
    summary:
      'Анализаторы разбивают текст на токены; BM25 ранжирует документы; шарды и реплики масштабируют поиск.',
    points: [
      'Анализатор: токенизатор и фильтры',
      'BM25: частота термина и длина документа',
      'Refresh interval и near real-time',
    ],
    sql: 'GET /docs/_search\n{\n  "query": { "match": { "text": "откат релиза" } }\n}',
    media: bookmark(
      'https://www.elastic.co/guide/en/elasticsearch/reference/current/index.html',
      'Документация Elasticsearch',
    ),
  },
  {
    slug: 'backups',
    title: 'Резервное копирование и PITR',
    summary: 'Базовая копия плюс архив WAL позволяют восстановиться на любой момент времени.',
    points: [
      'pg_basebackup и архивирование WAL',
      'Проверяйте восстановление, а не только копирование',
      'RPO и RTO',
    ],
    sql: "restore_command = 'cp /archive/%f %p'\nrecovery_target_time = '2026-10-05 12:00:00+00'",
  },
];

interface DesignCase {
  slug: string;
  title: string;
  functional: string[];
  nonFunctional: string[];
  components: string[];
  dau: number;
  requestsPerUser: number;
  bottleneck: string;
}

const DESIGN_CASES: DesignCase[] = [
  {
    slug: 'url-shortener',
    title: 'Сокращатель ссылок',
    functional: ['Создать короткую ссылку', 'Редирект по короткой ссылке', 'Статистика переходов'],
    nonFunctional: ['p99 редиректа < 50 мс', 'Доступность 99.99%', 'Ссылки не угадываются'],
    components: [
      'API-шлюз',
      'Генератор идентификаторов (base62)',
      'KV-хранилище',
      'Кэш Redis',
      'Очередь событий кликов',
    ],
    dau: 50_000_000,
    requestsPerUser: 4,
    bottleneck: 'чтение горячих ссылок — решается кэшем и CDN',
  },
  {
    slug: 'rate-limiter',
    title: 'Ограничитель запросов',
    functional: ['Лимиты на пользователя и на IP', 'Разные правила для эндпоинтов', 'Заголовок Retry-After'],
    nonFunctional: [
      'Задержка проверки < 1 мс',
      'Работа в нескольких регионах',
      'Мягкая деградация при отказе Redis',
    ],
    components: ['Token bucket', 'Redis с Lua-скриптами', 'Конфигурация правил', 'Sidecar в API-шлюзе'],
    dau: 10_000_000,
    requestsPerUser: 200,
    bottleneck: 'горячие ключи в Redis — шардирование по ключу пользователя',
  },
  {
    slug: 'news-feed',
    title: 'Лента новостей',
    functional: ['Публикация поста', 'Лента подписок', 'Лайки и комментарии'],
    nonFunctional: [
      'Лента за 200 мс',
      'Eventual consistency допустима',
      'Пиковая нагрузка в 5 раз выше средней',
    ],
    components: [
      'Fan-out on write',
      'Fan-out on read для знаменитостей',
      'Кэш лент',
      'Хранилище постов',
      'Ранжирование',
    ],
    dau: 300_000_000,
    requestsPerUser: 20,
    bottleneck: 'рассылка постов знаменитостей — гибридный fan-out',
  },
  {
    slug: 'chat',
    title: 'Мессенджер',
    functional: ['Личные и групповые чаты', 'Статусы доставки', 'История сообщений'],
    nonFunctional: ['Доставка < 100 мс онлайн', 'Порядок сообщений в чате', 'Хранение 5 лет'],
    components: [
      'WebSocket-шлюзы',
      'Сервис присутствия',
      'Очередь сообщений',
      'Cassandra для истории',
      'Push-уведомления',
    ],
    dau: 100_000_000,
    requestsPerUser: 40,
    bottleneck: 'миллионы долгоживущих соединений — шлюзы без состояния и маршрутизация по user_id',
  },
  {
    slug: 'notifications',
    title: 'Система уведомлений',
    functional: ['Email, SMS, push', 'Шаблоны и локализация', 'Настройки пользователя'],
    nonFunctional: ['Гарантия хотя бы одной доставки', 'Дедупликация', 'Ограничение частоты'],
    components: [
      'API приёма',
      'Очереди по каналам',
      'Воркеры провайдеров',
      'Хранилище статусов',
      'Планировщик',
    ],
    dau: 20_000_000,
    requestsPerUser: 3,
    bottleneck: 'лимиты внешних провайдеров — очереди с backpressure',
  },
  {
    slug: 'distributed-cache',
    title: 'Распределённый кэш',
    functional: ['get/set/delete с TTL', 'Вытеснение LRU', 'Горизонтальное масштабирование'],
    nonFunctional: ['p99 < 2 мс', 'Потеря узла не роняет систему', 'Минимальное перемещение ключей'],
    components: ['Консистентное хеширование', 'Реплики', 'Клиентская маршрутизация', 'Мониторинг hit rate'],
    dau: 5_000_000,
    requestsPerUser: 500,
    bottleneck: 'лавина промахов при холодном старте — request coalescing',
  },
  {
    slug: 'search-autocomplete',
    title: 'Автодополнение поиска',
    functional: ['Подсказки по префиксу', 'Учёт популярности', 'Персонализация'],
    nonFunctional: ['Ответ < 100 мс', 'Обновление раз в час', 'Фильтрация нежелательных запросов'],
    components: ['Trie с top-k в узлах', 'Офлайн-агрегация логов', 'Кэш на краю сети', 'Сервис фильтров'],
    dau: 80_000_000,
    requestsPerUser: 15,
    bottleneck: 'размер trie — шардирование по первым символам',
  },
  {
    slug: 'file-storage',
    title: 'Облачное хранилище файлов',
    functional: ['Загрузка и скачивание', 'Синхронизация между устройствами', 'Общий доступ'],
    nonFunctional: ['Надёжность 11 девяток', 'Загрузка больших файлов с докачкой', 'Дедупликация блоков'],
    components: [
      'Чанкинг файлов',
      'Хранилище метаданных',
      'Объектное хранилище',
      'Сервис уведомлений об изменениях',
    ],
    dau: 30_000_000,
    requestsPerUser: 10,
    bottleneck: 'метаданные — шардирование по пространству пользователя',
  },
  {
    slug: 'payments',
    title: 'Платёжная система',
    functional: ['Приём платежей', 'Возвраты', 'Сверка с банками'],
    nonFunctional: ['Ровно один списанный платёж', 'Аудит всех операций', 'PCI DSS'],
    components: ['Ключи идемпотентности', 'Двойная запись в журнале', 'Outbox', 'Сверка', 'Антифрод'],
    dau: 2_000_000,
    requestsPerUser: 2,
    bottleneck: 'согласованность с внешними PSP — идемпотентность и сверка',
  },
  {
    slug: 'metrics-pipeline',
    title: 'Сбор метрик',
    functional: ['Приём метрик', 'Агрегация и даунсэмплинг', 'Алерты'],
    nonFunctional: ['Миллионы точек в секунду', 'Задержка алертов < 1 мин', 'Хранение год'],
    components: ['Агенты', 'Kafka', 'Потоковая агрегация', 'TSDB', 'Правила алертов'],
    dau: 1_000_000,
    requestsPerUser: 1440,
    bottleneck: 'кардинальность меток — лимиты и агрегирование на агенте',
  },
  {
    slug: 'web-crawler',
    title: 'Поисковый робот',
    functional: ['Обход страниц', 'Уважение robots.txt', 'Дедупликация контента'],
    nonFunctional: ['Миллиард страниц в месяц', 'Вежливость к хостам', 'Устойчивость к ловушкам'],
    components: [
      'Frontier с приоритетами',
      'DNS-кэш',
      'Загрузчики',
      'SimHash для дублей',
      'Хранилище страниц',
    ],
    dau: 1_000,
    requestsPerUser: 30_000,
    bottleneck: 'вежливость — очереди по хостам',
  },
  {
    slug: 'ride-hailing',
    title: 'Сервис такси',
    functional: ['Поиск ближайших водителей', 'Назначение заказа', 'Трекинг поездки'],
    nonFunctional: ['Обновление позиции каждые 4 с', 'Назначение < 5 с', 'Работа по регионам'],
    components: ['Геоиндекс (geohash/H3)', 'Сервис матчинга', 'Поток координат', 'Расчёт цены'],
    dau: 15_000_000,
    requestsPerUser: 50,
    bottleneck: 'поток координат — партиционирование по ячейкам карты',
  },
];

const BEHAVIORAL = [
  [
    'Расскажите о конфликте в команде',
    'Спор о выборе очереди сообщений',
    'Договорились о критериях и провели прототип',
    'Решение принято за неделю, отношения сохранились',
  ],
  [
    'Самая большая ошибка',
    'Миграция без плана отката',
    'Откатили вручную, написали runbook',
    'Теперь каждая миграция проходит ревью отката',
  ],
  [
    'Проект, которым гордитесь',
    'Переписали поиск на гибридный',
    'Разбил работу на этапы с метриками',
    'Качество поиска выросло на 18% по nDCG',
  ],
  [
    'Как вы даёте обратную связь',
    'Коллега регулярно срывал сроки',
    'Разговор один на один по модели SBI',
    'Сроки стали реалистичнее, мы ввели оценку рисков',
  ],
  [
    'Tell me about a time you disagreed with your manager',
    'Roadmap put features over reliability',
    'Brought incident data and a cost estimate',
    'We reserved 20% of each sprint for reliability',
  ],
  [
    'Describe a project with ambiguous requirements',
    'A new analytics dashboard with no spec',
    'Interviewed five users and shipped a thin slice',
    'Usage data shaped the next three iterations',
  ],
  [
    'Когда вы взяли на себя лидерство',
    'Инцидент ночью без дежурного',
    'Собрал людей, распределил роли',
    'Восстановили сервис за 40 минут, провели постмортем',
  ],
  [
    'Как вы учитесь новому',
    'Нужно было освоить Temporal за две недели',
    'Прочитал документацию, сделал пет-проект',
    'Мигрировали три пайплайна без инцидентов',
  ],
  [
    'Tell me about mentoring someone',
    'A junior engineer struggled with code reviews',
    'Paired weekly and wrote a review checklist',
    'They led a feature end to end within a quarter',
  ],
  [
    'Провал сроков',
    'Интеграция с партнёром заняла вдвое дольше',
    'Пересогласовали объём и этапы',
    'Выпустили MVP вовремя, остальное — через месяц',
  ],
];

const RUNBOOKS = [
  [
    'elasticsearch-red',
    'Elasticsearch cluster is red',
    'Unassigned primary shards; search requests fail with 503.',
    'GET _cluster/allocation/explain?pretty',
  ],
  [
    'temporal-stuck',
    'Temporal workflows are stuck',
    'Workflow tasks pile up; no worker polls the task queue.',
    'temporal task-queue describe --task-queue trove-ingest',
  ],
  [
    'postgres-failover',
    'PostgreSQL primary failover',
    'The primary is unreachable and writes fail.',
    'patronictl -c /etc/patroni.yml list',
  ],
  [
    'deploy-rollback',
    'Rolling back a deployment',
    'Error rate rises after a release.',
    'kubectl rollout undo deployment/api -n trove',
  ],
  [
    'disk-full',
    'Disk is almost full',
    'Node disk usage above 90%; writes start failing.',
    'du -xh / | sort -h | tail -20',
  ],
  [
    'high-latency',
    'API latency above SLO',
    'p99 latency above 800 ms for 10 minutes.',
    'kubectl top pods -n trove --sort-by=cpu',
  ],
  [
    'kafka-lag',
    'Kafka consumer lag',
    'Consumer lag grows and events arrive late.',
    'kafka-consumer-groups --describe --group ingest',
  ],
  [
    'cert-renewal',
    'TLS certificate renewal',
    'Certificate expires in less than 14 days.',
    'openssl s_client -connect api.trove.example:443 | openssl x509 -noout -dates',
  ],
  [
    'embedder-down',
    'Embedding server is down',
    'Ingest retries pile up; /readyz reports the embedder unhealthy.',
    'curl -s localhost:8089/v1/models',
  ],
  [
    'redis-memory',
    'Redis out of memory',
    'OOM command not allowed when used memory > maxmemory.',
    'redis-cli info memory',
  ],
  [
    'dns-failure',
    'Internal DNS failures',
    'Services cannot resolve each other; sporadic connection errors.',
    'dig +short api.trove.internal',
  ],
  [
    'queue-backlog',
    'Ingest backlog growing',
    'Documents stay PENDING for more than 30 minutes.',
    'temporal workflow count --query "ExecutionStatus=\'Running\'"',
  ],
  [
    'oom-kills',
    'Pods killed for memory',
    'Pods restart with OOMKilled.',
    'kubectl get pods -n trove | grep OOMKilled',
  ],
  [
    'notion-rate-limit',
    'Notion sync is rate limited',
    'Sync logs show 429 rate_limited with Retry-After.',
    'grep rate_limited /var/log/trove/worker.log | tail',
  ],
  [
    'secrets-rotation',
    'Rotating API keys',
    'A key leaked or reached its rotation date.',
    'trove-admin keys rotate --project all',
  ],
  [
    'index-reindex',
    'Reindexing the chunk index',
    'Mapping change requires a new index version.',
    'POST _reindex?wait_for_completion=false',
  ],
];

const ONBOARDING = [
  ['first-day', 'Your first day', 'Laptop, accounts and who to ask.'],
  [
    'dev-environment',
    'Setting up the development environment',
    'Node 20, Java 17, Python 3.11 and the local services.',
  ],
  ['access-requests', 'Access requests', 'How to get access to production, dashboards and Notion.'],
  ['code-review', 'Code review guidelines', 'What we look for and how fast we answer.'],
  ['on-call-basics', 'On-call basics', 'Rotations, escalation and handover.'],
  [
    'architecture-overview',
    'Architecture overview',
    'API, worker, Temporal, Elasticsearch and the embedder.',
  ],
  [
    'testing-strategy',
    'Testing strategy',
    'Unit tests beside the code, integration tests against real services.',
  ],
  ['release-process', 'Release process', 'Trunk-based development, feature flags and weekly releases.'],
  ['glossary', 'Glossary', 'Chunks, projects, hybrid search and other words we use.'],
  ['security-basics', 'Security basics', 'Secrets, dependencies and incident reporting.'],
];

const ADRS = [
  ['Use Temporal for ingestion workflows', 'Accepted', 'Pipelines'],
  ['Store originals in a blob store, not in Temporal payloads', 'Accepted', 'Pipelines'],
  ['Elasticsearch as the only search backend', 'Accepted', 'Search'],
  ['Chunk ids are documentId-position-contentHash', 'Accepted', 'Search'],
  ['Multilingual e5 embeddings by default', 'Accepted', 'ML'],
  ['Reciprocal rank fusion with k = 60', 'Accepted', 'Search'],
  ['Hybrid search with reciprocal rank fusion', 'Accepted', 'Search'],
  ['GraphQL code-first schema', 'Accepted', 'API'],
  ['REST for uploads', 'Accepted', 'API'],
  ['Zod for configuration', 'Accepted', 'Platform'],
  ['No Docker in local development', 'Accepted', 'Platform'],
  ['Nx module boundaries by scope and type', 'Accepted', 'Platform'],
  ['Vector-only search', 'Rejected', 'Search'],
  ['Store chunks in PostgreSQL with pgvector', 'Rejected', 'Search'],
  ['Poll Notion every 5 minutes', 'Superseded', 'Connectors'],
  ['Notion webhooks with a reconciliation sweep', 'Proposed', 'Connectors'],
  ['Language analyzers per field', 'Accepted', 'Search'],
  ['int8 HNSW quantization', 'Accepted', 'Search'],
  ['API keys per project', 'Proposed', 'API'],
  ['Structured logging with pino', 'Accepted', 'Platform'],
  ['Feature flags in configuration', 'Proposed', 'Platform'],
  ['Retry policy for permanent failures', 'Accepted', 'Pipelines'],
  ['Cross-encoder reranking', 'Proposed', 'Search'],
  ['Separate admin and project keys', 'Accepted', 'API'],
];

const QUESTIONS: [string, string, number][] = [
  ['Как работает бинарный поиск и где он ломается?', 'Алгоритмы', 2],
  ['Найдите k самых частых элементов', 'Алгоритмы', 3],
  ['Объясните разницу между BFS и DFS', 'Алгоритмы', 2],
  ['Как найти цикл в связном списке?', 'Алгоритмы', 2],
  ['Реализуйте LRU-кэш', 'Алгоритмы', 4],
  ['Кратчайший путь во взвешенном графе', 'Алгоритмы', 4],
  ['Longest increasing subsequence in O(n log n)', 'Алгоритмы', 5],
  ['Merge k sorted lists', 'Алгоритмы', 4],
  ['Detect a cycle in a directed graph', 'Алгоритмы', 3],
  ['Топологическая сортировка зависимостей сборки', 'Алгоритмы', 3],
  ['Подсчёт островов в матрице', 'Алгоритмы', 2],
  ['Edit distance between two strings', 'Алгоритмы', 4],
  ['Медиана потока чисел', 'Алгоритмы', 5],
  ['Trapping rain water', 'Алгоритмы', 4],
  ['Сериализация бинарного дерева', 'Алгоритмы', 4],
  ['Как устроен индекс B-tree?', 'Базы данных', 3],
  ['Что такое MVCC и зачем нужен VACUUM?', 'Базы данных', 4],
  ['Explain isolation levels and their anomalies', 'Базы данных', 4],
  ['Когда индекс не используется?', 'Базы данных', 3],
  ['Чем отличается репликация от шардирования?', 'Базы данных', 2],
  ['How does a write-ahead log work?', 'Базы данных', 3],
  ['Что такое N+1 запросы и как их найти?', 'Базы данных', 2],
  ['Optimistic vs pessimistic locking', 'Базы данных', 3],
  ['Как выбрать ключ шардирования?', 'Базы данных', 4],
  ['Что покажет EXPLAIN ANALYZE?', 'Базы данных', 3],
  ['LSM-tree vs B-tree for write-heavy workloads', 'Базы данных', 5],
  ['Как работает двухфазный коммит?', 'Базы данных', 5],
  ['Design a URL shortener', 'Системный дизайн', 3],
  ['Спроектируйте ограничитель запросов', 'Системный дизайн', 4],
  ['Design a news feed', 'Системный дизайн', 5],
  ['Спроектируйте мессенджер', 'Системный дизайн', 5],
  ['Design a distributed cache', 'Системный дизайн', 4],
  ['Как обеспечить идемпотентность платежей?', 'Системный дизайн', 4],
  ['Design search autocomplete', 'Системный дизайн', 4],
  ['Как масштабировать WebSocket-соединения?', 'Системный дизайн', 4],
  ['Спроектируйте систему уведомлений', 'Системный дизайн', 3],
  ['Design a metrics pipeline', 'Системный дизайн', 5],
  ['Как считать уникальных пользователей за день?', 'Системный дизайн', 4],
  ['Outbox pattern: зачем он нужен?', 'Системный дизайн', 3],
  ['Расскажите о конфликте в команде', 'Поведенческие', 2],
  ['Tell me about your biggest mistake', 'Поведенческие', 2],
  ['Проект, которым вы гордитесь', 'Поведенческие', 1],
  ['How do you prioritize technical debt?', 'Поведенческие', 3],
  ['Как вы даёте обратную связь?', 'Поведенческие', 2],
  ['Tell me about a time you led without authority', 'Поведенческие', 3],
  ['Почему вы уходите с текущего места?', 'Поведенческие', 1],
  ['Describe a decision you made with incomplete data', 'Поведенческие', 3],
  ['Что происходит, когда вы вводите URL в браузере?', 'Сети', 3],
  ['TCP vs UDP', 'Сети', 2],
  ['Как работает TLS-рукопожатие?', 'Сети', 4],
  ['HTTP/2 vs HTTP/3', 'Сети', 3],
  ['Что такое DNS и как работает кэширование?', 'Сети', 2],
  ['Load balancing: L4 vs L7', 'Сети', 3],
  ['Event loop в Node.js', 'Языки', 3],
  ['Замыкания в JavaScript', 'Языки', 2],
  ['Goroutines vs OS threads', 'Языки', 3],
  ['Сборка мусора в JVM', 'Языки', 4],
  ['TypeScript: conditional and mapped types', 'Языки', 4],
  ['Что такое GIL в Python?', 'Языки', 3],
  ['Rust ownership and borrowing', 'Языки', 5],
];

/**
 * The default fixture: a Russian/English workspace of interview-prep notes and team docs with about
 * 250 pages, every supported block and property type, databases (one with two data sources), a synced
 * block, a page reachable only through a database row, a trashed page and an unshared page linked from
 * a shared one. Deterministic: seeded, with times from 2026-10-01T00:00:00Z on.
 */
export function defaultWorkspace(): Workspace {
  const rnd = seeded(20261001);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const chance = (p: number) => rnd() < p;
  /** A time `days` (fractional) after the base date, with seconds, as Notion stores them. */
  const at = (days: number) => new Date(BASE + Math.floor(days * DAY) + int(0, 59) * 1000).toISOString();
  const users = USERS.map((u) => u.id);

  const pages: PageInput[] = [];
  const databases: DatabaseInput[] = [];

  /** Creation and last edit: created within the first 20 days, edited up to 10 days later. */
  const audit = (createdDay?: number) => {
    const created = createdDay ?? rnd() * 20;
    const edited = chance(0.7) ? created + rnd() * 10 : created;
    const author = pick(users);
    return {
      createdTime: at(created),
      createdBy: author,
      lastEditedTime: at(edited),
      lastEditedBy: chance(0.6) ? author : pick(users),
    };
  };
  const addPage = (page: Omit<PageInput, 'createdTime' | 'createdBy'> & Partial<PageInput>) => {
    const full = { ...audit(), ...page } as PageInput;
    // The creation must not follow the last edit when a caller fixed only one of them.
    if (Date.parse(full.lastEditedTime!) < Date.parse(full.createdTime))
      full.lastEditedTime = full.createdTime;
    pages.push(full);
    return full.id;
  };

  const {
    hub: HUB,
    algorithms: ALGO,
    databases: DB,
    systemDesign: DESIGN,
    behavioral: BEHAVIOR,
    cheatsheet: CHEATSHEET,
    handbook: HANDBOOK,
    runbooks: RUNBOOKS_PAGE,
    onboarding: ONBOARDING_PAGE,
    architectureDecisions: ADR_PAGE,
    meetings: MEETINGS,
    trashedPage: TRASHED,
    unsharedPage: PRIVATE,
    questionsDatabase: QUESTIONS_DB,
    questionsDataSource: QUESTIONS_DS,
    adrDatabase: ADR_DB,
    adrDataSource: ADR_DS,
    trackerDatabase: TRACKER_DB,
    tasksDataSource: TASKS_DS,
    bugsDataSource: BUGS_DS,
    syncedOriginal: SYNCED_ONCALL,
  } = DEFAULT_IDS;
  const algoPageId = (slug: string) => id(`page/algo/${slug}`);
  const dbPageId = (slug: string) => id(`page/db/${slug}`);

  // ---- interview prep hub ------------------------------------------------------------------------------
  addPage({
    id: HUB,
    parent: { type: 'workspace' },
    title: 'Подготовка к собеседованиям',
    icon: '🎯',
    ...audit(0.1),
    blocks: [
      h1('Подготовка к собеседованиям'),
      p([
        t('План на два месяца: '),
        bold('алгоритмы'),
        t(', '),
        bold('базы данных'),
        t(', '),
        bold('системный дизайн'),
        t(' и поведенческие вопросы. Начало — '),
        mentionDate('2026-10-01'),
        t('.'),
      ]),
      callout(
        [t('Правило: каждый день '), bold('две задачи'), t(' и один вопрос из базы.')],
        '🔥',
        'orange_background',
      ),
      h2('Разделы'),
      linkToPage(ALGO),
      linkToPage(DB),
      linkToPage(DESIGN),
      linkToPage(BEHAVIOR),
      h2('База вопросов'),
      childDatabase(QUESTIONS_DB),
      h2('Материалы'),
      childPage(ALGO),
      childPage(DB),
      childPage(DESIGN),
      childPage(BEHAVIOR),
      childPage(CHEATSHEET),
      embed('https://www.youtube.com/watch?v=Ajx0q1Q2J3o', 'Запись пробного интервью'),
    ],
  });

  // ---- algorithms ----------------------------------------------------------------------------------------
  addPage({
    id: ALGO,
    parent: { type: 'page', id: HUB },
    title: 'Алгоритмы и структуры данных',
    icon: '🧮',
    ...audit(0.2),
    blocks: [
      p('Темы в порядке повторения. У каждой темы есть страница с задачами.'),
      columns(
        [h3('Базовые'), ...ALGORITHMS.slice(0, 9).map((a) => bullet([mentionPage(algoPageId(a.slug))]))],
        [h3('Продвинутые'), ...ALGORITHMS.slice(9).map((a) => bullet([mentionPage(algoPageId(a.slug))]))],
      ),
      divider(),
      ...ALGORITHMS.map((a) => childPage(algoPageId(a.slug))),
    ],
  });
  ALGORITHMS.forEach((topic, i) => {
    const pageId = algoPageId(topic.slug);
    const problemsId = id(`page/algo/${topic.slug}/problems`);
    const next = ALGORITHMS[(i + 1) % ALGORITHMS.length];
    const blocks: BlockInput[] = [
      callout(topic.idea, '💡'),
      h2('Ключевые идеи'),
      bullet(topic.points[0], [
        bullet(topic.points[1], [
          bullet(topic.points[2], [
            p([italic('Проверьте на граничных случаях: пустой вход, один элемент.')]),
          ]),
        ]),
      ]),
      h2('Сложность'),
      table([
        ['Операция', 'Время', 'Память'],
        ['Основной алгоритм', topic.time, topic.space],
        ['Наивное решение', 'O(n²)', 'O(1)'],
      ]),
    ];
    if (topic.recurrence) {
      blocks.push(p([t('Оценка: '), eq(topic.recurrence), t('.')]), equation(topic.recurrence));
    }
    blocks.push(
      h2('Реализация'),
      codeBlock(topic.snippet, topic.language, `${topic.title}: эталонная реализация`),
      toggle('Частые ошибки', [
        bullet('Выход за границы массива', [
          bullet('Проверяйте условия цикла', [p('Особенно при lo == hi.')]),
        ]),
        bullet([t('Забытый '), code('return'), t(' в рекурсии')]),
      ]),
      h3('Советы к интервью', [
        p('Сначала проговорите наивное решение, затем улучшайте.'),
        todo('Проговорить сложность вслух', true),
      ]),
      quote(
        pick([
          'Сначала корректность, потом скорость.',
          'Premature optimization is the root of all evil.',
          'Нарисуйте пример на доске.',
        ]),
      ),
      todo('Решить три задачи по теме', chance(0.5)),
      todo('Повторить через неделю'),
      divider(),
      p([
        t('Следующая тема: '),
        mentionPage(algoPageId(next.slug)),
        t('. Практика — на отдельной странице.'),
      ]),
      childPage(problemsId),
    );
    if (topic.wiki) blocks.push(bookmark(topic.wiki, 'Wikipedia'));
    addPage({ id: pageId, parent: { type: 'page', id: ALGO }, title: topic.title, blocks });
    addPage({
      id: problemsId,
      parent: { type: 'page', id: pageId },
      title: `Задачи: ${topic.title}`,
      blocks: [
        p([t('Задачи на тему '), mentionPage(pageId), t(', от простых к сложным.')]),
        ...topic.problems.map((problem, k) =>
          num(
            [link(problem, `https://leetcode.com/problems/${slugify(problem)}/`)],
            [
              p([
                italic('Подсказка: '),
                t(k === 0 ? 'начните с перебора.' : 'подумайте, что можно переиспользовать.'),
              ]),
            ],
          ),
        ),
        h3('Прогресс'),
        ...topic.problems.map((problem) => todo(problem, chance(0.4))),
      ],
    });
  });

  // ---- databases -------------------------------------------------------------------------------------------
  addPage({
    id: DB,
    parent: { type: 'page', id: HUB },
    title: 'Базы данных',
    icon: '🗄️',
    ...audit(0.3),
    blocks: [
      p([
        t('Основа — '),
        link('документация PostgreSQL', 'https://www.postgresql.org/docs/current/'),
        t(' и книга «Designing Data-Intensive Applications».'),
      ]),
      pdf(
        { external: 'https://www.postgresql.org/files/documentation/pdf/17/postgresql-17-A4.pdf' },
        'PostgreSQL 17 manual',
      ),
      ...DATABASE_TOPICS.map((topic) => childPage(dbPageId(topic.slug))),
    ],
  });
  DATABASE_TOPICS.forEach((topic) => {
    const pageId = dbPageId(topic.slug);
    const deepId = id(`page/db/${topic.slug}/deep-dive`);
    const blocks: BlockInput[] = [
      p(topic.summary),
      h2('Главное'),
      ...topic.points.map((point) => bullet(point)),
      h2('Пример'),
      codeBlock(topic.sql, topic.sql.startsWith('GET') ? 'json' : 'sql'),
    ];
    if (topic.media) blocks.push(topic.media);
    blocks.push(
      toggle('Вопросы для самопроверки', [
        num('Какие компромиссы у этого подхода?', [
          num('Что будет при росте данных в 10 раз?', [p('Оцените память и время.')]),
        ]),
        num('Как это проверить на практике?'),
      ]),
      callout('Запомнить: измеряйте, а не угадывайте.', '📏', 'blue_background'),
    );
    if (topic.deepDive) {
      blocks.push(h2('Подробнее'), childPage(deepId));
    }
    addPage({ id: pageId, parent: { type: 'page', id: DB }, title: topic.title, blocks });
    if (topic.deepDive) {
      addPage({
        id: deepId,
        parent: { type: 'page', id: pageId },
        title: `Разбор: ${topic.title}`,
        blocks: [
          p([t('Подробный разбор темы '), mentionPage(pageId), t(' с примерами из продакшена.')]),
          h2('Сценарий'),
          num('Воспроизведите проблему на тестовом стенде'),
          num('Снимите метрики до изменения'),
          num('Примените изменение и сравните'),
          codeBlock(topic.sql, 'sql', 'Исходный запрос'),
          table(
            [
              ['Метрика', 'До', 'После'],
              ['p95, мс', String(int(80, 400)), String(int(10, 79))],
              ['CPU, %', String(int(50, 90)), String(int(10, 49))],
            ],
            true,
            true,
          ),
        ],
      });
    }
  });

  // ---- system design -------------------------------------------------------------------------------------
  addPage({
    id: DESIGN,
    parent: { type: 'page', id: HUB },
    title: 'Системный дизайн',
    icon: '🏗️',
    ...audit(0.4),
    blocks: [
      p('Шаблон ответа: требования → оценка нагрузки → API → схема данных → компоненты → узкие места.'),
      image({ file: 'system-design-template.png' }, 'Шаблон ответа на доске'),
      ...DESIGN_CASES.map((c) => childPage(id(`page/design/${c.slug}`))),
    ],
  });
  DESIGN_CASES.forEach((c) => {
    const pageId = id(`page/design/${c.slug}`);
    const estimateId = id(`page/design/${c.slug}/estimate`);
    const qps = Math.round((c.dau * c.requestsPerUser) / 86_400);
    addPage({
      id: pageId,
      parent: { type: 'page', id: DESIGN },
      title: c.title,
      blocks: [
        h1('Требования'),
        columns(
          [h3('Функциональные'), ...c.functional.map((f) => bullet(f))],
          [h3('Нефункциональные'), ...c.nonFunctional.map((f) => bullet(f))],
        ),
        h1('Оценка нагрузки'),
        p([
          t('Средний поток запросов: '),
          eq('QPS = \\frac{DAU \\times r}{86400}'),
          t(` ≈ ${qps.toLocaleString('en-US')} запросов в секунду.`),
        ]),
        equation('QPS_{peak} \\approx 3 \\times QPS_{avg}'),
        childPage(estimateId),
        h1('Компоненты'),
        ...c.components.map((component, k) =>
          num(component, k === 0 ? [p('Точка входа для всех клиентов.')] : undefined),
        ),
        image({ external: `https://diagrams.trove.example/${c.slug}.svg` }, `Схема: ${c.title}`),
        embed(`https://excalidraw.com/#room=${c.slug}`, 'Доска с обсуждения'),
        callout([bold('Узкое место: '), t(c.bottleneck)], '⚠️', 'yellow_background'),
        toggle('Что спросит интервьюер', [
          bullet('Как масштабировать в 10 раз?', [
            bullet('Где появится первое узкое место?', [p('Начните с хранилища.')]),
          ]),
          bullet('Что будет при отказе дата-центра?'),
        ]),
      ],
    });
    addPage({
      id: estimateId,
      parent: { type: 'page', id: pageId },
      title: `Оценка нагрузки: ${c.title}`,
      blocks: [
        table([
          ['Параметр', 'Значение'],
          ['DAU', c.dau.toLocaleString('en-US')],
          ['Запросов на пользователя в день', String(c.requestsPerUser)],
          ['Средний QPS', qps.toLocaleString('en-US')],
          ['Пиковый QPS', (qps * 3).toLocaleString('en-US')],
        ]),
        p('Храним данные за 5 лет с репликацией ×3.'),
        equation(`storage = ${c.dau} \\times 365 \\times 5 \\times size`),
      ],
    });
  });

  // ---- behavioral --------------------------------------------------------------------------------------------
  addPage({
    id: BEHAVIOR,
    parent: { type: 'page', id: HUB },
    title: 'Поведенческие вопросы',
    icon: '🗣️',
    ...audit(0.5),
    blocks: [
      p([t('Отвечаем по '), bold('STAR'), t(': ситуация, задача, действия, результат.')]),
      ...BEHAVIORAL.map((_, k) => childPage(id(`page/behavior/${k}`))),
    ],
  });
  BEHAVIORAL.forEach(([question, situation, action, result], k) => {
    const english = /^[A-Z]/.test(question) && !/[а-я]/i.test(question);
    const [sLabel, aLabel, rLabel] = english
      ? ['Situation', 'Action', 'Result']
      : ['Ситуация', 'Действия', 'Результат'];
    addPage({
      id: id(`page/behavior/${k}`),
      parent: { type: 'page', id: BEHAVIOR },
      title: question,
      blocks: [
        h2(sLabel),
        p(situation),
        h2(aLabel),
        p(action),
        h2(rLabel),
        p(result),
        quote(english ? 'Keep it under two minutes.' : 'Уложиться в две минуты.'),
        h3(english ? 'Follow-up questions' : 'Уточняющие вопросы', [
          bullet(english ? 'What would you do differently?' : 'Что бы вы сделали иначе?'),
          bullet(english ? 'How did you measure success?' : 'Как измеряли успех?'),
        ]),
      ],
    });
  });

  // ---- the long page: more than 100 top-level blocks -------------------------------------------------
  const cheatsheet: BlockInput[] = [
    h1('Шпаргалка: 150 задач'),
    p('Отмечайте решённые задачи. Страница длинная: больше ста блоков верхнего уровня.'),
  ];
  const cheatTopics = [
    'Массивы',
    'Строки',
    'Связные списки',
    'Деревья',
    'Графы',
    'Динамика',
    'Кучи',
    'Бэктрекинг',
    'Интервалы',
    'Математика',
  ];
  cheatTopics.forEach((topic, k) => {
    cheatsheet.push(h3(topic));
    for (let n = 1; n <= 13; n++) cheatsheet.push(todo(`${topic}: задача ${k * 15 + n}`, chance(0.35)));
  });
  addPage({
    id: CHEATSHEET,
    parent: { type: 'page', id: HUB },
    title: 'Шпаргалка: 150 задач',
    icon: '📋',
    blocks: cheatsheet,
  });

  // ---- interview questions database ---------------------------------------------------------------------
  const questionIds = QUESTIONS.map((_, k) => id(`row/question/${k}`));
  const topicSlugs: Record<string, string> = {
    Алгоритмы: 'algorithms',
    'Базы данных': 'databases',
    'Системный дизайн': 'design',
    Поведенческие: 'behavioral',
    Сети: 'networks',
    Языки: 'languages',
  };
  databases.push({
    id: QUESTIONS_DB,
    title: 'Вопросы для собеседования',
    description: 'Вопросы с короткими ответами, сложностью и статусом подготовки.',
    parent: { type: 'page', id: HUB },
    isInline: true,
    icon: '❓',
    ...audit(0.1),
    dataSources: [
      {
        id: QUESTIONS_DS,
        name: 'Вопросы',
        properties: [
          { name: 'Вопрос', type: 'title' },
          { name: 'Ответ кратко', type: 'rich_text' },
          { name: 'Сложность', type: 'number', format: 'number' },
          {
            name: 'Тема',
            type: 'select',
            options: [
              { name: 'Алгоритмы', color: 'blue' },
              { name: 'Базы данных', color: 'green' },
              { name: 'Системный дизайн', color: 'purple' },
              { name: 'Поведенческие', color: 'pink' },
              { name: 'Сети', color: 'orange' },
              { name: 'Языки', color: 'yellow' },
            ],
          },
          {
            name: 'Теги',
            type: 'multi_select',
            options: [
              { name: 'junior', color: 'gray' },
              { name: 'middle', color: 'brown' },
              { name: 'senior', color: 'red' },
              { name: 'live-coding', color: 'blue' },
              { name: 'теория', color: 'green' },
              { name: 'FAANG', color: 'purple' },
            ],
          },
          {
            name: 'Статус',
            type: 'status',
            options: [
              { name: 'Не начат', color: 'default' },
              { name: 'В процессе', color: 'blue' },
              { name: 'Готов', color: 'green' },
            ],
            groups: [
              { name: 'To-do', color: 'gray', options: ['Не начат'] },
              { name: 'In progress', color: 'blue', options: ['В процессе'] },
              { name: 'Complete', color: 'green', options: ['Готов'] },
            ],
          },
          { name: 'Повторить', type: 'date' },
          { name: 'Решено', type: 'checkbox' },
          { name: 'Источник', type: 'url' },
          { name: 'Автор', type: 'people' },
          { name: 'Связанные вопросы', type: 'relation', dataSourceId: QUESTIONS_DS },
          {
            name: 'Число связанных',
            type: 'rollup',
            relation: 'Связанные вопросы',
            property: 'Вопрос',
            function: 'count',
          },
          {
            name: 'Средняя сложность связанных',
            type: 'rollup',
            relation: 'Связанные вопросы',
            property: 'Сложность',
            function: 'average',
          },
          {
            name: 'Приоритет',
            type: 'formula',
            expression: 'if(prop("Сложность") >= 4, "Высокий", "Обычный")',
          },
          { name: 'Материалы', type: 'files' },
          { name: 'Создано', type: 'created_time' },
          { name: 'Изменено', type: 'last_edited_time' },
          { name: 'Создал', type: 'created_by' },
          { name: 'Изменил', type: 'last_edited_by' },
          { name: 'ID', type: 'unique_id', prefix: 'Q' },
        ],
      },
    ],
  });
  QUESTIONS.forEach(([question, topic, difficulty], k) => {
    const sameTopic = questionIds.filter((_, j) => j !== k && QUESTIONS[j][1] === topic);
    const related = sameTopic.filter(() => chance(0.15)).slice(0, 3);
    const tags = ['junior', 'middle', 'senior'][Math.min(2, Math.floor((difficulty - 1) / 2))];
    const properties: Record<string, PropertyValueInput> = {
      Вопрос: question,
      'Ответ кратко': [
        t('Коротко: '),
        t(`см. раздел «${topic}»`, { italic: true }),
        t(difficulty >= 4 ? ' и разбор на странице.' : '.'),
      ],
      Сложность: difficulty,
      Тема: topic,
      Теги: chance(0.3) ? [tags, 'FAANG'] : [tags, chance(0.5) ? 'теория' : 'live-coding'],
      Статус: pick(['Не начат', 'В процессе', 'Готов']),
      Повторить: chance(0.7) ? { start: `2026-10-${String(int(5, 30)).padStart(2, '0')}` } : null,
      Решено: chance(0.4),
      Источник: chance(0.6) ? `https://interview.trove.example/${topicSlugs[topic]}/${k + 1}` : null,
      Автор: [pick(users)],
      'Связанные вопросы': related,
      Приоритет: { string: difficulty >= 4 ? 'Высокий' : 'Обычный' },
      Материалы:
        k % 7 === 0
          ? [{ name: `question-${k + 1}.png` }]
          : k % 11 === 0
            ? [{ name: 'Разбор на YouTube', url: 'https://www.youtube.com/watch?v=trove' + k }]
            : [],
    };
    const blocks: BlockInput[] = [
      h2('Ответ'),
      p(`Развёрнутый ответ на вопрос «${question}».`),
      bullet('Определения и термины'),
      bullet('Пример из практики'),
      bullet('Компромиссы'),
    ];
    if (k % 5 === 0)
      blocks.push(
        codeBlock(
          '// набросок решения\nfunction solve(input: number[]): number {\n  return input.length;\n}',
          'typescript',
        ),
      );
    addPage({
      id: questionIds[k],
      parent: { type: 'data_source', id: QUESTIONS_DS },
      properties,
      blocks,
      ...audit(1 + k * 0.2),
    });
  });
  // A summary row related to more than 25 questions: the page object shows 25 and sets has_more.
  addPage({
    id: id('row/question/summary'),
    parent: { type: 'data_source', id: QUESTIONS_DS },
    properties: {
      Вопрос: 'Сводный план: финальное интервью',
      'Ответ кратко': 'Все вопросы, которые нужно повторить перед финалом.',
      Сложность: 5,
      Тема: 'Системный дизайн',
      Теги: ['senior', 'FAANG'],
      Статус: 'В процессе',
      Повторить: {
        start: '2026-10-25T09:00:00.000+03:00',
        end: '2026-10-25T12:00:00.000+03:00',
        timeZone: 'Europe/Moscow',
      },
      Решено: false,
      Источник: 'https://interview.trove.example/final',
      Автор: [ANNA, DMITRY],
      'Связанные вопросы': questionIds.slice(0, 30),
      Приоритет: { string: 'Высокий' },
      Материалы: [
        { name: 'final-plan.pdf' },
        { name: 'Design primer', url: 'https://github.com/donnemartin/system-design-primer' },
      ],
    },
    blocks: [p('План повторения на последнюю неделю.'), todo('Пройти все связанные вопросы')],
    ...audit(5),
  });

  // ---- engineering handbook --------------------------------------------------------------------------------
  addPage({
    id: HANDBOOK,
    parent: { type: 'workspace' },
    title: 'Engineering Handbook',
    icon: '📘',
    ...audit(0.05),
    blocks: [
      h1('Engineering Handbook'),
      p([
        t('How the Trove team builds and runs the product. Owners: '),
        mentionUser(MARIA),
        t(' and '),
        mentionUser(DMITRY),
        t('.'),
      ]),
      callout(
        'If something here is wrong, fix it — the handbook is a wiki, not a contract.',
        '✍️',
        'blue_background',
      ),
      childPage(RUNBOOKS_PAGE),
      childPage(ONBOARDING_PAGE),
      childPage(ADR_PAGE),
      h2('Work tracker'),
      childDatabase(TRACKER_DB),
      { type: 'link_to_page', databaseId: ADR_DB },
    ],
  });

  addPage({
    id: RUNBOOKS_PAGE,
    parent: { type: 'page', id: HANDBOOK },
    title: 'Runbooks',
    icon: '🚨',
    ...audit(0.15),
    blocks: [
      p('Step-by-step guides for incidents. Start with the on-call contacts below.'),
      {
        id: SYNCED_ONCALL,
        type: 'synced_block',
        children: [
          h3('On-call contacts'),
          p([t('Primary: '), mentionUser(JAMES), t(' · Secondary: '), mentionUser(ELENA)]),
          bullet([t('Escalation channel: '), code('#trove-incidents')]),
          bullet([t('Status page: '), link('status.trove.example', 'https://status.trove.example')]),
        ],
      },
      divider(),
      ...RUNBOOKS.map(([slug]) => childPage(id(`page/runbook/${slug}`))),
      // Blocks nested under list items, in every shape the renderer must keep (appended last, so
      // the ids of the blocks above stay as they were).
      h2('Incident checklist'),
      num('Open an incident channel', [
        codeBlock('/incident open --sev 2 --title "Search latency above SLO"', 'bash'),
      ]),
      bullet('Severity levels', [
        table([
          ['Level', 'Meaning'],
          ['SEV-1', 'Search is down for every project'],
          ['SEV-2', 'Sync is delayed by more than an hour'],
        ]),
      ]),
      bullet('Incident commander', [
        {
          id: id('block/synced-incident-commander'),
          type: 'synced_block',
          children: [p('The incident commander rota changes weekly; handover is on Monday mornings.')],
        },
      ]),
      bullet('Frequently asked', [
        toggle('How do I page the secondary?', [
          p('Type /page secondary in #trove-incidents; PagerDuty calls them within two minutes.'),
        ]),
      ]),
      bullet('Dashboards to watch', [
        columns([p('Ingest lag stays under five minutes')], [p('Search p95 latency stays under 300 ms')]),
      ]),
      todo('Read the postmortem guide', false, [
        bookmark(
          'https://sre.google/sre-book/postmortem-culture/',
          'Postmortem culture: learning from failure',
        ),
      ]),
      bullet('Close the incident', [
        p('Write the postmortem within 48 hours.', [p('Blameless: describe systems, not people.')]),
      ]),
      bullet('Roll back a bad release', [
        bullet('Find the last good release', [
          num('Check the deploy log', [
            todo('Pick the release tag', false, [
              codeBlock('git tag --sort=-creatordate | head -5', 'shell'),
            ]),
          ]),
        ]),
      ]),
    ],
  });
  RUNBOOKS.forEach(([slug, title, symptom, command]) => {
    addPage({
      id: id(`page/runbook/${slug}`),
      parent: { type: 'page', id: RUNBOOKS_PAGE },
      title,
      icon: '📕',
      blocks: [
        callout(
          [bold('Severity: '), t(pick(['SEV-1', 'SEV-2', 'SEV-3'])), t('. Page the on-call engineer first.')],
          '⚠️',
          'red_background',
        ),
        h2('Symptoms'),
        bullet(symptom),
        bullet('Alerts fire in #trove-alerts'),
        h2('Diagnosis'),
        num('Check the dashboard', [
          p([link('Grafana: Trove overview', 'https://grafana.trove.example/d/trove')]),
        ]),
        num([t('Run '), code(command.split(' ')[0])], [codeBlock(command, 'bash')]),
        h2('Mitigation'),
        num('Apply the fix', [
          todo('Announce in #trove-incidents', false, [p('Use the incident template.')]),
          todo('Apply the change'),
          todo('Verify recovery'),
        ]),
        num('Write a timeline for the postmortem'),
        h2('Escalation'),
        p([t('If not resolved in 30 minutes, call the secondary. See '), mentionPage(RUNBOOKS_PAGE), t('.')]),
        bookmark('https://grafana.trove.example/d/trove', 'Dashboard'),
      ],
    });
  });

  addPage({
    id: ONBOARDING_PAGE,
    parent: { type: 'page', id: HANDBOOK },
    title: 'Onboarding',
    icon: '👋',
    ...audit(0.2),
    blocks: [
      p('Everything a new engineer needs in the first two weeks.'),
      columns(
        [h3('Week 1'), todo('Accounts and laptop'), todo('Run the quick start'), todo('First pull request')],
        [h3('Week 2'), todo('Shadow on-call'), todo('Read the ADRs'), todo('Pair on a feature')],
      ),
      p([t('Compensation questions: see '), mentionPage(PRIVATE), t(' (HR only).')]),
      linkToPage(PRIVATE),
      ...ONBOARDING.map(([slug]) => childPage(id(`page/onboarding/${slug}`))),
    ],
  });
  ONBOARDING.forEach(([slug, title, summary]) => {
    const blocks: BlockInput[] = [
      p(summary),
      h2('Checklist'),
      todo('Read this page'),
      todo('Ask questions in #trove-dev'),
    ];
    if (slug === 'on-call-basics') {
      blocks.push(
        h2('Who to call'),
        { type: 'synced_block', syncedFrom: SYNCED_ONCALL },
        linkToPage(RUNBOOKS_PAGE),
      );
    }
    if (slug === 'dev-environment') {
      blocks.push(
        codeBlock(
          'git clone https://github.com/trove/trove.git\ncd trove\nnpm run quickstart',
          'bash',
          'Quick start',
        ),
        fileBlock({ file: 'ssh-config.txt' }, 'SSH config for the bastion'),
        pdf({ file: 'laptop-setup.pdf' }),
      );
    }
    if (slug === 'architecture-overview') {
      blocks.push(
        image({ file: 'architecture.png' }, 'Trove architecture'),
        fileBlock({ external: 'https://docs.trove.example/architecture.drawio' }),
        embed('https://www.figma.com/file/trove-architecture'),
      );
    }
    if (slug === 'glossary') {
      blocks.push(
        table(
          [
            ['Term', 'Meaning'],
            ['Chunk', 'A piece of a document that is embedded and indexed'],
            ['Project', 'A collection of documents searched together'],
            ['RRF', 'Reciprocal rank fusion of BM25 and kNN results'],
          ],
          true,
          true,
        ),
        p([t('RRF score: '), eq('\\sum_{r} \\frac{1}{k + rank_r(d)}')]),
      );
    }
    addPage({
      id: id(`page/onboarding/${slug}`),
      parent: { type: 'page', id: ONBOARDING_PAGE },
      title,
      blocks,
    });
  });

  // ---- ADRs: a full-page database; one row holds the only path to a sub-page ---------------------
  addPage({
    id: ADR_PAGE,
    parent: { type: 'page', id: HANDBOOK },
    title: 'Architecture Decisions',
    icon: '🧭',
    ...audit(0.25),
    blocks: [p('We record significant decisions as ADRs (Michael Nygard format).'), childDatabase(ADR_DB)],
  });
  databases.push({
    id: ADR_DB,
    title: 'Team ADRs',
    description: [t('Architecture decision records. '), link('Template', 'https://adr.github.io/')],
    parent: { type: 'page', id: ADR_PAGE },
    isInline: false,
    icon: '🧭',
    ...audit(0.25),
    dataSources: [
      {
        id: ADR_DS,
        name: 'ADRs',
        properties: [
          { name: 'Name', type: 'title' },
          {
            name: 'Status',
            type: 'status',
            options: [
              { name: 'Proposed', color: 'yellow' },
              { name: 'Accepted', color: 'green' },
              { name: 'Superseded', color: 'gray' },
              { name: 'Rejected', color: 'red' },
            ],
            groups: [
              { name: 'To-do', color: 'gray', options: ['Proposed'] },
              { name: 'In progress', color: 'blue', options: [] },
              { name: 'Complete', color: 'green', options: ['Accepted', 'Superseded', 'Rejected'] },
            ],
          },
          { name: 'Decided on', type: 'date' },
          { name: 'Owner', type: 'people' },
          { name: 'Owner email', type: 'email' },
          { name: 'On-call phone', type: 'phone_number' },
          {
            name: 'Area',
            type: 'select',
            options: ['Pipelines', 'Search', 'ML', 'API', 'Platform', 'Connectors'].map((name) => ({ name })),
          },
          {
            name: 'Tags',
            type: 'multi_select',
            options: [{ name: 'performance' }, { name: 'cost' }, { name: 'security' }, { name: 'dx' }],
          },
          { name: 'Supersedes', type: 'relation', dataSourceId: ADR_DS },
          { name: 'Related questions', type: 'relation', dataSourceId: QUESTIONS_DS },
          {
            name: 'Question topics',
            type: 'rollup',
            relation: 'Related questions',
            property: 'Тема',
            function: 'show_original',
          },
          {
            name: 'Latest review',
            type: 'rollup',
            relation: 'Related questions',
            property: 'Повторить',
            function: 'latest_date',
          },
          { name: 'Review score', type: 'number', format: 'percent' },
          { name: 'Needs review', type: 'formula', expression: 'prop("Review score") < 0.5' },
          { name: 'RFC', type: 'url' },
          { name: 'Reviewed', type: 'checkbox' },
          { name: 'Attachments', type: 'files' },
          { name: 'Created', type: 'created_time' },
          { name: 'Last edited', type: 'last_edited_time' },
          { name: 'Number', type: 'unique_id', prefix: 'ADR' },
        ],
      },
    ],
  });
  const adrIds = ADRS.map((_, k) => id(`row/adr/${k}`));
  ADRS.forEach(([name, status, area], k) => {
    const owner = pick(users);
    const ownerInfo = USERS.find((u) => u.id === owner)!;
    const score = Math.round(rnd() * 100) / 100;
    const blocks: BlockInput[] = [
      h2('Context'),
      p(`We needed a decision on: ${name.toLowerCase()}.`),
      h2('Decision'),
      p([
        bold(status === 'Rejected' ? 'We will not ' : 'We will '),
        t(name.charAt(0).toLowerCase() + name.slice(1) + '.'),
      ]),
      h2('Consequences'),
      bullet('Positive: simpler operations', [bullet('Fewer moving parts', [p('One less service to run.')])]),
      bullet('Negative: migration work'),
      quote('Decisions are cheap to record and expensive to rediscover.'),
    ];
    const benchmarkId = DEFAULT_IDS.rowOnlyPage;
    if (k === 6) blocks.push(h2('Evidence'), childPage(benchmarkId));
    addPage({
      id: adrIds[k],
      parent: { type: 'data_source', id: ADR_DS },
      properties: {
        Name: `ADR-${String(k + 1).padStart(3, '0')}: ${name}`,
        Status: status,
        'Decided on': { start: `2026-${k < 12 ? '09' : '10'}-${String((k % 12) * 2 + 1).padStart(2, '0')}` },
        Owner: [owner],
        'Owner email': ownerInfo.email,
        'On-call phone': `+7 999 555-${String(10 + k).padStart(2, '0')}-${String(40 + k)}`,
        Area: area,
        Tags: ['performance', 'cost', 'security', 'dx'].filter(() => chance(0.35)),
        Supersedes: k === 15 ? [adrIds[14]] : [],
        'Related questions':
          area === 'Search'
            ? questionIds.filter((_, j) => QUESTIONS[j][1] === 'Базы данных').slice(0, 3)
            : [],
        'Review score': score,
        'Needs review': { boolean: score < 0.5 },
        RFC: chance(0.5) ? `https://rfc.trove.example/${k + 1}` : null,
        Reviewed: status !== 'Proposed',
        Attachments: k % 4 === 0 ? [{ name: `adr-${k + 1}-diagram.png` }] : [],
      },
      blocks,
      ...audit(k * 0.5),
    });
    if (k === 6) {
      addPage({
        id: benchmarkId,
        parent: { type: 'page', id: adrIds[k] },
        title: 'ADR-007 benchmark results',
        icon: '📊',
        blocks: [
          p('Only reachable through the ADR-007 row of the Team ADRs database.'),
          table([
            ['Mode', 'nDCG@10', 'p95 latency'],
            ['BM25', '0.412', '38 ms'],
            ['kNN', '0.455', '52 ms'],
            ['Hybrid (RRF)', '0.503', '61 ms'],
          ]),
          image({ file: 'ndcg-by-mode.png' }, 'nDCG@10 by retrieval mode'),
        ],
      });
    }
  });

  // ---- engineering tracker: one database, two data sources ------------------------------------------
  databases.push({
    id: TRACKER_DB,
    title: 'Engineering tracker',
    parent: { type: 'page', id: HANDBOOK },
    isInline: true,
    icon: '🗂️',
    ...audit(0.3),
    dataSources: [
      {
        id: TASKS_DS,
        name: 'Tasks',
        properties: [
          { name: 'Name', type: 'title' },
          {
            name: 'Status',
            type: 'status',
            options: [
              { name: 'Not started' },
              { name: 'In progress', color: 'blue' },
              { name: 'Done', color: 'green' },
            ],
            groups: [
              { name: 'To-do', options: ['Not started'] },
              { name: 'In progress', color: 'blue', options: ['In progress'] },
              { name: 'Complete', color: 'green', options: ['Done'] },
            ],
          },
          { name: 'Assignee', type: 'people' },
          { name: 'Due', type: 'date' },
          {
            name: 'Priority',
            type: 'select',
            options: [
              { name: 'P0', color: 'red' },
              { name: 'P1', color: 'orange' },
              { name: 'P2', color: 'gray' },
            ],
          },
          { name: 'Estimate', type: 'number', format: 'number' },
        ],
      },
      {
        id: BUGS_DS,
        name: 'Bugs',
        properties: [
          { name: 'Title', type: 'title' },
          {
            name: 'Severity',
            type: 'select',
            options: [
              { name: 'Critical', color: 'red' },
              { name: 'Major', color: 'orange' },
              { name: 'Minor', color: 'gray' },
            ],
          },
          { name: 'Reporter', type: 'people' },
          { name: 'Fixed', type: 'checkbox' },
          { name: 'Link', type: 'url' },
          { name: 'Repro steps', type: 'rich_text' },
          { name: 'Reported', type: 'created_time' },
        ],
      },
    ],
  });
  const tasks = [
    'Notion connector: incremental sync',
    'Notion connector: webhooks',
    'Reranker experiment',
    'Chunker: tables as units',
    'Dashboard: document timings',
    'Upgrade Elasticsearch to 8.19',
    'Load test hybrid search',
    'Russian stemming evaluation',
    'Chinese analyzer (smartcn)',
    'Per-project API keys',
    'Backups for the blob store',
    'MCP server: search tool',
  ];
  tasks.forEach((name, k) => {
    addPage({
      id: id(`row/task/${k}`),
      parent: { type: 'data_source', id: TASKS_DS },
      properties: {
        Name: name,
        Status: pick(['Not started', 'In progress', 'Done']),
        Assignee: [pick(users)],
        Due: { start: `2026-10-${String(10 + k).padStart(2, '0')}` },
        Priority: pick(['P0', 'P1', 'P2']),
        Estimate: int(1, 8),
      },
      blocks: k < 4 ? [p('Acceptance criteria:'), todo('Tests pass'), todo('Docs updated')] : [],
      ...audit(2 + k * 0.3),
    });
  });
  const bugs = [
    'Search returns duplicate chunks after reindex',
    'Upload of a 0-byte file hangs',
    'Russian query with ё finds nothing',
    'Dashboard shows wrong chunk count',
    'Temporal retries a non-retryable failure',
    'Embedding timeout not respected',
    'PDF title extracted as "untitled"',
    'GraphQL error leaks stack trace',
    'Notion 429 not retried with Retry-After',
    'Webhook signature check fails for unicode bodies',
  ];
  bugs.forEach((title, k) => {
    addPage({
      id: id(`row/bug/${k}`),
      parent: { type: 'data_source', id: BUGS_DS },
      properties: {
        Title: title,
        Severity: pick(['Critical', 'Major', 'Minor']),
        Reporter: [pick(users)],
        Fixed: chance(0.5),
        Link: `https://github.com/trove/trove/issues/${100 + k * 7}`,
        'Repro steps': [t('1. '), t('Run the quick start. '), t('2. '), code('npm run quickstart')],
      },
      blocks: [codeBlock(`Error: ${title}\n    at handler (worker.ts:${int(10, 300)})`, 'plain text', 'Log')],
      ...audit(3 + k * 0.4),
    });
  });

  // ---- team meetings ---------------------------------------------------------------------------------------
  const meetingIds = Array.from({ length: 12 }, (_, k) => id(`page/meeting/${k}`));
  addPage({
    id: MEETINGS,
    parent: { type: 'workspace' },
    title: 'Встречи команды / Team meetings',
    icon: '📅',
    ...audit(0.3),
    blocks: [p('Еженедельные встречи: повестка, решения, задачи.'), ...meetingIds.map(childPage)],
  });
  meetingIds.forEach((meetingId, k) => {
    const date = new Date(BASE + k * 2 * DAY).toISOString().slice(0, 10);
    const russian = k % 2 === 0;
    const blocks: BlockInput[] = [
      p([
        t(russian ? 'Дата: ' : 'Date: '),
        mentionDate(date),
        t(russian ? '. Ведущий: ' : '. Host: '),
        mentionUser(pick(users)),
      ]),
      h2(russian ? 'Повестка' : 'Agenda'),
      bullet(russian ? 'Статус синхронизации Notion' : 'Notion sync status'),
      bullet(russian ? 'Качество поиска' : 'Search quality', [
        bullet(russian ? 'Метрики nDCG' : 'nDCG metrics'),
      ]),
      h2(russian ? 'Решения' : 'Decisions'),
      p(
        russian
          ? 'Продолжаем гибридный поиск, пересмотрим через месяц.'
          : 'Keep hybrid search; revisit next month.',
      ),
      h2(russian ? 'Задачи' : 'Action items'),
      todo(
        [mentionUser(pick(users)), t(russian ? ' — обновить runbook' : ' — update the runbook')],
        chance(0.5),
      ),
      todo([mentionUser(pick(users)), t(russian ? ' — подготовить демо' : ' — prepare the demo')]),
    ];
    if (k === 3) blocks.push(p('Старая инструкция по деплою (в корзине):'), linkToPage(TRASHED));
    if (k === 5) blocks.push(h2('On-call'), { type: 'synced_block', syncedFrom: SYNCED_ONCALL });
    addPage({
      id: meetingId,
      parent: { type: 'page', id: MEETINGS },
      title: russian ? `Встреча команды ${date}` : `Team sync ${date}`,
      blocks,
      ...audit(k * 2 + 0.5),
    });
  });

  // ---- a shared page in the trash, and a page the integration cannot see -------------------------
  addPage({
    id: TRASHED,
    parent: { type: 'workspace' },
    title: 'Old deployment guide (deprecated)',
    icon: '🗑️',
    inTrash: true,
    ...audit(0.5),
    blocks: [
      callout('Deprecated: use the Runbooks instead.', '⛔', 'red_background'),
      p('ssh into the box and run deploy.sh'),
    ],
  });
  addPage({
    id: PRIVATE,
    parent: { type: 'workspace' },
    title: 'Salary bands 2026 (private)',
    icon: '🔒',
    shared: false,
    ...audit(0.6),
    blocks: [p('Confidential: HR only.')],
  });

  return {
    workspace: { id: id('workspace'), name: 'Trove Demo' },
    integration: {
      id: id('integration'),
      botId: id('bot'),
      name: 'Trove Sync',
      token: DEFAULT_TOKEN,
      userInformation: 'with_email',
    },
    users: USERS.map((u) => ({ ...u, avatarUrl: null })),
    pages,
    databases,
  };
}
