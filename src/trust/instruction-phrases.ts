/**
 * Word lists and phrase rules of the instruction detector, one block per attack family.
 *
 * Rules describe the *shape* of an attack (verb of dismissal + reference to earlier
 * instructions; a request aimed at the reader's own output; a message addressed to an AI), not
 * strings from any corpus. A strong rule flags text on its own; weak rules flag text only when
 * two different ones fire (see `detect-instructions.ts`). The detector's whole rule set, these
 * and the other rule modules', is assembled in phrase-rule-set.
 */
import { strongRule as strong, weakRule as weak, type PhraseRule } from './phrase-matcher.js';

// Verbs dismissing what came before, in every language the lists cover.
const DISMISS: readonly string[] = [
  'negeer', 'negeren', 'vergeet', 'ignoriert', 'missachte', 'vergessen', 'ignorer', 'oublier', 'ignoren', 'olvidar', 'olviden', 'descarta', 'ignori', 'ignorare', 'dimentichi', 'dimenticare', 'esqueca', 'esquece', 'esquecer', 'desconsidere', 'desconsidera', 'игнорируй', 'игнорируйте', 'игнорировать', 'проигнорируй', 'забудь', 'забудьте', 'отбрось', 
  'ignore', 'disregard', 'forget', 'skip', 'override', 'bypass', 'neglect', 'abandon', 'dismiss', 'overlook',
  'discard', 'overwrite', 'ignoriere', 'ignorieren', 'vergiss', 'ignorez', 'oubliez', 'oublie', 'ignora',
  'ignorar', 'olvida', 'olvide', 'dimentica',
];

// Verbs asking the reader to hand something over.
const LEAK_VERBS: readonly string[] = [
  'reveal', 'print', 'repeat', 'output', 'show', 'display', 'disclose', 'leak', 'tell', 'give', 'write',
  'return', 'dump', 'expose', 'share', 'recite', 'spell',
];

// Verbs handing something over, in any wording.
const LEAK_ANY: readonly string[] = [...LEAK_VERBS, 'provide', 'quote', 'restate', 'list'];

// What a reader is given to work on.
const DOCUMENTS: readonly string[] = ['document', 'text', 'context', 'input', 'email', 'message', 'data', 'file', 'page', 'content'];

/** The base rules' named word lists (`@name`). All lower case, already normalized. */
export const BASE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  dismiss: DISMISS,
  dismissOrAside: [...DISMISS, 'aside'],
  // Dismissal verbs that never mean going around a step for the user ("skips all confirmation
  // prompts", "--force bypasses all interactive prompts", "overrides all default commands").
  dismissHard: DISMISS.filter((w) => !['skip', 'bypass', 'override', 'overwrite'].includes(w)),
  // What a reader is told, in the narrow sense a CLI manual never uses for its own prompts.
  toldRules: ['instructions', 'instruction', 'directives', 'directive', 'guidelines', 'guidance', 'programming', 'rules'],
  prior: [
    'vorigen', 'fruheren', 'vorige', 'eerdere', 'voorgaande', 'bovenstaande', 'precedents', 'precedente', 'anterieures', 'anteriores', 'anterior', 'previas', 'previos', 'precedentes', 'предыдущие', 'предыдущих', 'прежние', 'прошлые', 'предыдущую', 'системные', 
    'previous', 'prior', 'above', 'earlier', 'preceding', 'former', 'initial', 'original', 'old', 'existing',
    'system', 'safety', 'developer', 'default', 'given', 'provided', 'current', 'preset', 'vorherigen',
    'bisherigen', 'obigen', 'precedentes', 'anteriores', 'previas', 'precedenti',
  ],
  determiner: [
    'tous', 'tout', 'todos', 'todas', 'tutti', 'alle', 'все', 'всё', 'любые', 'jeglichen', 'sämtliche', 'all', 'any', 'your', 'every', 'each', 'alle', 'toutes', 'todas', 'tutte'],
  instructions: [
    'instructies', 'opdrachten', 'aanwijzingen', 'regels', 'regles', 'directives', 'reglas', 'ordenes', 'regole', 'direttive', 'indicazioni', 'instrucoes', 'instrucao', 'regras', 'orientacoes', 'diretrizes', 'инструкции', 'инструкций', 'указания', 'указаний', 'правила', 'команды', 'anordnungen', 'vorgaben', 'instruktionen', 
    'instructions', 'instruction', 'prompt', 'prompts', 'rules', 'guidelines', 'directions', 'directives',
    'directive', 'commands', 'orders', 'guidance', 'constraints', 'restrictions', 'policies', 'programming',
    'context', 'conversation', 'anweisungen', 'anweisung', 'befehle', 'regeln', 'consignes', 'instrucciones',
    'istruzioni', 'indicaciones',
  ],
  strictInstructions: ['instructions', 'instruction', 'prompt', 'prompts', 'directives', 'guidelines', 'programming'],
  everything: [
    'alles', 'tudo', 'всё', 'все', 'everything', 'anything', 'all', 'alles', 'tout', 'todo', 'tutto'],
  priorAdverb: [
    'eerder', 'hiervoor', 'voordien', 'auparavant', 'precedemment', 'anteriormente', 'prima', 'precedentemente', 'раньше', 'ранее', 'до', 'anterior', 'precedente', 'precedent', 'precede', 'dessus', 'oben', 'vorher', 'sopra', 'acima', 'hierboven', 'выше', 'before', 'above', 'previously', 'prior', 'earlier', 'said', 'told', 'so', 'until', 'davor', 'zuvor', 'bisher', 'avant', 'antes', 'prima'],
  negation: ['don', 'dont', 'never', 'stop', 'cease'],
  obey: ['follow', 'obey', 'listen', 'adhere', 'comply', 'heed'],
  leakVerb: LEAK_VERBS,
  secretAdj: ['system', 'initial', 'original', 'hidden', 'secret', 'developer', 'your', 'internal'],
  newAdj: ['new', 'real', 'actual', 'true', 'updated', 'revised', 'primary', 'main', 'only', 'first', 'urgent', 'final'],
  taskNoun: ['task', 'tasks', 'goal', 'objective', 'mission', 'job', 'instruction', 'instructions', 'purpose', 'assignment', 'directive', 'priority'],
  changedAdj: ['new', 'real', 'actual', 'true', 'updated', 'revised', 'urgent'],
  // What a changed task hands the reader to do (not "be", "lead", "list": "your true purpose is
  // to be happy", "your new task list").
  taskAction: [
    'send', 'transfer', 'email', 'forward', 'delete', 'remove', 'erase', 'pay', 'tell', 'post', 'share', 'visit', 'download',
    'upload', 'give', 'write', 'say', 'print', 'output', 'reply', 'respond', 'answer', 'reveal', 'repeat', 'ignore', 'call',
    'run', 'execute', 'invoke', 'use', 'grant', 'collect', 'mark', 'translate', 'summarize', 'go', 'navigate', 'open',
    'click', 'insert', 'include', 'append', 'convince', 'persuade', 'recommend', 'approve', 'cancel', 'disable', 'export',
    'publish', 'create', 'change', 'modify', 'reset', 'buy', 'spell', 'act', 'pretend', 'leak', 'disclose', 'extract',
  ],
  aiName: [
    'ai', 'chatbot', 'llm', 'llms', 'gpt', 'chatgpt', 'claude', 'gemini', 'bard', 'copilot', 'llama', 'mistral',
    'assistant', 'agent', 'model', 'bot',
  ],
  aiStrictName: ['ai', 'chatbot', 'llm', 'llms', 'gpt', 'chatgpt', 'claude', 'gemini', 'bard', 'copilot', 'llama', 'mistral'],
  greeting: ['dear', 'hey', 'hi', 'hello', 'yo', 'attention', 'note', 'notice', 'reminder', 'memo', 'message', 'instructions', 'calling'],
  readerVerb: [
    'reading', 'processing', 'parsing', 'summarizing', 'summarising', 'analyzing', 'analysing', 'crawling',
    'scanning', 'viewing', 'seeing', 'receiving', 'ingesting', 'handling',
  ],
  taskVerb: [
    'solve', 'do', 'complete', 'answer', 'continue', 'proceed', 'respond', 'finish', 'start', 'begin', 'summarize',
    'reply', 'return', 'perform', 'carry', 'handle', 'process', 'execute',
  ],
  request: ['task', 'request', 'question', 'instructions', 'query', 'job', 'assignment'],
  assignVerb: ['gave', 'give', 'given', 'assigned', 'asked', 'gives', 'requested'],
  tell: ['tell', 'inform', 'mention', 'reveal', 'disclose', 'notify', 'alert', 'warn', 'let'],
  principal: ['user', 'human', 'operator', 'owner', 'customer'],
  telling: ['telling', 'informing', 'notifying', 'alerting', 'mentioning', 'asking', 'letting'],
  editVerb: [
    'add', 'include', 'integrate', 'insert', 'incorporate', 'embed', 'mention', 'append', 'modify', 'enhance',
    'augment', 'render', 'provide', 'use', 'replace', 'convert', 'introduce', 'misspell', 'scramble', 'jumble',
    'rearrange', 'remove', 'group', 'combine', 'anagram', 'suggest', 'tease', 'promote', 'end', 'begin', 'start',
    'write', 'translate', 'format', 'encode', 'substitute', 'prepend', 'change', 'alter', 'edit', 'rewrite',
    'conclude', 'finish', 'sign', 'attach', 'emphasize', 'stress', 'highlight', 'recommend', 'advertise',
    'express', 'invite', 'encourage', 'direct', 'link', 'offer', 'hint', 'respond', 'reply', 'answer', 'put',
    'reverse', 'compose', 'present', 'structure', 'display', 'capitalize', 'shorten', 'spell', 'wrap', 'enclose',
    'translate', 'transform', 'obfuscate', 'disguise', 'embed', 'append', 'prefix', 'suffix', 'weave',
  ],
  yourOutput: [
    'response', 'responses', 'reply', 'replies', 'answer', 'answers', 'output', 'outputs', 'message',
    'summary', 'completion', 'generation', 'text',
  ],
  codeInsertVerb: [
    'include', 'integrate', 'incorporate', 'embed', 'merge', 'append', 'insert', 'inject', 'blend', 'fuse',
    'weave', 'meld', 'infuse', 'interweave', 'utilize', 'use', 'adopt', 'deploy', 'enlist', 'engage', 'employ',
    'absorb', 'harmonize', 'add', 'leverage', 'introduce', 'execute', 'run', 'render', 'consider', 'ensure',
    'assimilate', 'implement', 'paste', 'copy',
  ],
  codeNoun: [
    'code', 'solution', 'implementation', 'codebase', 'algorithm', 'program', 'script', 'project', 'application',
    'app', 'elucidation', 'architecture', 'logic', 'software', 'framework', 'structure', 'essence', 'fabric', 'core',
  ],
  codeBlock: ['block', 'snippet', 'excerpt', 'section', 'segment', 'fragment', 'portion', 'piece', 'chunk'],
  following: ['following', 'subsequent', 'below', 'underneath', 'attached', 'accompanying', 'provided'],
  into: ['in', 'into', 'within', 'to', 'throughout', 'inside'],
  now: ['now', 'on', 'forth'],
  henceforth: ['henceforth', 'hereafter', 'onwards'],
  modal: ['are', 'will', 'must', 'should', 'shall', 'have', 'need', 'may', 'can', 're', 'act', 'respond', 'answer', 'reply', 'behave'],
  unrestricted: ['dan', 'jailbroken', 'jailbreak', 'unrestricted', 'unfiltered', 'uncensored', 'unbound', 'evil', 'free'],
  modeName: ['developer', 'jailbreak', 'dan', 'god', 'debug', 'admin', 'sudo', 'maintenance', 'unrestricted', 'root'],
  sendVerb: ['send', 'forward', 'email', 'post', 'upload', 'transmit', 'leak', 'exfiltrate', 'share', 'submit', 'transfer', 'relay', 'copy'],
  secretNoun: [
    'conversation', 'history', 'password', 'passwords', 'credentials', 'credential', 'secrets', 'secret', 'token',
    'tokens', 'cookies', 'key', 'keys', 'transcript', 'memory', 'files', 'contacts', 'emails', 'inbox', 'otp',
    'passport', 'ssn', 'card', 'ssh', 'rsa', 'env', 'wallet',
  ],
  urlTarget: ['url', 'link', 'endpoint', 'webhook', 'server', 'address', 'domain', 'site', 'website'],
  important: ['important', 'urgent', 'critical', 'attention', 'warning', 'notice'],
  callVerb: ['use', 'call', 'invoke', 'execute', 'run', 'trigger', 'utilize'],
  toolNoun: ['tool', 'function', 'api', 'plugin'],
  argNoun: ['arguments', 'argument', 'parameters', 'parameter', 'args', 'params', 'inputs'],
  docEnd: [...DOCUMENTS, 'prompt', 'conversation'],
  persona: ['act', 'behave', 'roleplay', 'pretend'],
  priorPost: [
    'above', 'previous', 'prior', 'earlier', 'before', 'preceding', 'precedentes', 'precedents', 'anterieures',
    'anteriores', 'previas', 'precedenti', 'previe', 'vorherigen', 'vorigen', 'eerdere', 'vorige', 'предыдущие',
  ],
  what: ['that', 'what', 'everything', 'anything', 'all', 'whatever', 'which'],
  toldVerb: ['told', 'instructed', 'taught', 'programmed', 'asked', 'given', 'said', 'trained', 'ordered', 'commanded', 'directed', 'briefed'],
  gotVerb: ['told', 'instructed', 'taught', 'programmed', 'asked', 'given', 'said', 'trained', 'ordered', 'commanded', 'directed', 'briefed', 'received', 'got', 'issued', 'assigned', 'handed'],
  voided: ['void', 'cancelled', 'canceled', 'obsolete', 'invalid', 'revoked', 'outdated', 'superseded', 'overridden', 'null', 'rescinded', 'suspended', 'lifted', 'deprecated'],
  supersede: ['supersede', 'supersedes', 'override', 'overrides', 'replace', 'replaces', 'overrule', 'overrules', 'trump', 'trumps'],
  goVerb: ['go', 'navigate', 'visit', 'open', 'browse', 'click', 'download', 'fetch', 'load', 'access'],
  webNoun: ['url', 'link', 'page', 'site', 'website', 'address', 'http', 'https', 'www'],
  complete: ['complete', 'finish', 'accomplish', 'perform', 'solve', 'fulfil', 'fulfill', 'achieve', 'continue'],
  authority: ['developer', 'developers', 'creator', 'creators', 'administrator', 'admin', 'owner', 'operator', 'programmer', 'maker', 'supervisor', 'maintainer', 'maintainers', 'trainer', 'trainers'],
  leakAny: LEAK_ANY,
  setupAdj: ['setup', 'system', 'initial', 'configuration', 'config', 'hidden', 'startup', 'initialization'],
  setupNoun: ['message', 'prompt', 'text', 'rules', 'guidelines', 'instructions', 'configuration', 'directives'],
  secretThing: ['secret', 'password', 'passcode', 'passphrase', 'access', 'code', 'key', 'instructions', 'prompt', 'rules', 'guidelines'],
  // The reader's own job on a document, as an agent would be doing it.
  readerTask: ['summarizing', 'summarising', 'translating', 'answering', 'responding', 'replying', 'processing', 'analyzing', 'analysing', 'reviewing', 'parsing', 'reading', 'classifying'],
  summarizeVerb: ['summarize', 'summarise', 'analyze', 'analyse', 'classify', 'review', 'process', 'read', 'parse'],
  docTarget: [
    ...DOCUMENTS, 'article', 'review', 'reviews', 'post', 'thread', 'results', 'webpage', 'website', 'site', 'ticket', 'issue',
    'comment', 'comments', 'mail',
  ],
  actVerb: [
    'write', 'tell', 'say', 'output', 'print', 'send', 'list', 'explain', 'call', 'run', 'reply', 'respond', 'do', 'add',
    'include', 'give', 'create', 'compose', 'generate', 'provide', 'describe', 'forward', 'email', 'post', 'return',
  ],
  leakInclude: [...LEAK_ANY, 'include', 'append', 'add', 'attach', 'paste', 'insert'],
  outputVerb: ['begin', 'start', 'end', 'open', 'close', 'conclude', 'finish'],
  destroyVerb: ['delete', 'erase', 'wipe', 'destroy', 'drop', 'purge'],
  bulkData: ['files', 'data', 'database', 'databases', 'repository', 'repositories', 'repo', 'records', 'users', 'accounts', 'emails', 'messages', 'tables', 'backups', 'contacts', 'folders'],
  privilege: ['admin', 'administrator', 'root', 'elevated', 'superuser', 'owner', 'full'],
  privilegeNoun: ['privileges', 'privilege', 'rights', 'access', 'permissions', 'permission', 'role'],
};

/** The base phrase rules. `id` is stable and appears in scan output. */
export const BASE_RULES: readonly PhraseRule[] = [
  // override — dismissing whatever the reader was told before.
  strong('override.dismiss-prior', 'override', '@dismiss ~3 @prior ~2 @instructions'),
  strong('override.dismiss-all', 'override', '@dismiss @determiner ~2 instructions|instruction|directives|guidelines|programming'),
  // "Skips all confirmation prompts" is how CLI manuals describe --yes: prompts are only dismissed
  // by the verbs that do not also mean answering them for the user.
  strong('override.dismiss-all-prompts', 'override', '@dismissHard @determiner ~2 prompt|prompts'),
  strong('override.dismiss-everything', 'override', '@dismiss @everything ~3 @priorAdverb'),
  weak('override.dismiss-rules', 'override', '@dismiss ~3 @instructions'),
  strong('override.do-not-follow', 'override', '@negation ~1 @obey ~3 @prior ~2 @instructions'),
  strong('override.do-not-follow-2', 'override', 'do not ~1 @obey ~3 @prior ~2 @instructions'),
  // A changed task is an override only when the sentence goes on to hand the reader an action
  // ("your new task is to send …", "your real goal: print …", "your new instructions are as
  // follows"): "congratulations on your new job" and "your new task list is attached" are mail.
  strong('override.new-task', 'override', 'your @changedAdj ~1 @taskNoun is|are ~2 @taskAction'),
  strong('override.new-task-colon', 'override', 'your @changedAdj ~1 @taskNoun @taskAction'),
  strong('override.new-task-follows', 'override', 'your @changedAdj ~1 @taskNoun is|are ~2 follows|following|below'),
  weak('override.main-task', 'override', 'your @newAdj ~1 @taskNoun'),
  weak('override.new-instructions', 'override', 'new|updated|revised|additional @strictInstructions'),
  weak('override.instead-of-task', 'override', 'instead of ~3 @request'),
  weak('override.from-now-on', 'override', 'from ~1 @now ~2 you ~1 @modal'),
  weak('override.henceforth', 'override', '@henceforth ~2 you ~1 @modal'),
  strong('override.you-are-now-unrestricted', 'override', 'you are|re now ~3 @unrestricted'),
  strong('override.do-anything-now', 'override', 'do anything now'),
  weak('override.mode', 'override', '@modeName mode'),
  strong('override.enable-mode', 'override', 'enable|activate|enter|switch|simulate|emulate|start|engage ~2 @modeName mode'),
  strong('override.leak-prompt', 'override', '@leakVerb ~4 @secretAdj ~1 prompt|prompts|instructions'),
  strong('override.repeat-above', 'override', 'repeat|print|output ~2 words|text|everything|lines ~1 above'),
  strong('override.no-restrictions', 'override', 'without|no ~1 any ~1 restrictions|limitations|filters|censorship|guardrails ~3 you'),

  weak('override.stop-doing', 'override', 'stop|cease ~1 what ~1 you ~2 doing'),
  strong('override.stop-doing-now', 'override', 'immediately|now ~1 stop|cease ~1 what ~1 you ~2 doing'),
  weak('override.end-of-document', 'override', 'end of ~1 the|this ~1 @docEnd'),
  weak('override.respond-only', 'override', 'respond|reply|answer|output ~1 only ~1 with'),
  weak('override.nothing-else', 'override', 'say|output|print|respond|reply|write ~8 and|but ~1 nothing else'),
  weak('override.pwned', 'override', 'have ~1 been pwned|pwnd'),

  // Generalized shapes: dismissing what the reader was told, declaring it void, superseding it.
  strong('override.dismiss-told', 'override', '@dismiss ~4 @what ~3 you ~3 @toldVerb'),
  strong('override.dismiss-rules-after', 'override', '@dismiss ~3 @instructions ~1 @priorPost'),
  strong('override.dismiss-all-rules', 'override', '@dismissHard ~2 all ~2 @instructions'),
  strong('override.bypass-all-rules', 'override', 'skip|bypass|override|overwrite ~2 all ~2 @toldRules'),
  strong('override.prior-void', 'override', '@prior ~2 @instructions ~4 void|cancelled|canceled|obsolete|invalid|revoked|outdated|superseded|overridden|null|rescinded'),
  strong('override.no-longer-apply', 'override', '@prior ~2 @instructions ~4 no longer ~1 apply|valid|relevant|matter|binding|needed'),
  strong('override.supersede-prior', 'override', '@supersede ~3 all|any|every|your ~2 @prior ~2 @instructions'),
  strong('override.pay-no-attention', 'override', 'pay no attention ~3 @prior ~2 @instructions'),
  strong('override.set-aside', 'override', 'set aside|put ~4 @prior ~2 @instructions'),
  strong('override.dismiss-what-you-got', 'override', '@dismissOrAside ~3 @instructions ~2 you ~3 @gotVerb'),
  strong('override.yours-void', 'override', '@instructions ~1 you ~3 @gotVerb ~3 are|is|were|now ~2 @voided'),
  // Urgent directives to an agent in the middle of its task.
  strong('hijack.to-complete-task', 'task_hijack', 'in order ~1 to ~1 @complete ~2 your|the ~2 @taskNoun ~4 you ~1 must|need|have|should'),
  weak('hijack.before-anything-else', 'task_hijack', 'before ~1 doing|you|anything ~2 anything|else'),
  weak('hijack.urgent-must', 'task_hijack', '@important ~5 you ~1 must|need|have'),
  weak('hijack.must-go-to', 'task_hijack', 'you ~1 must|need|should|have ~2 @goVerb ~4 @webNoun'),
  // Tool-call demands: naming the tool the reader must use.
  weak('tool.by-using-tool', 'tool_call', 'by|via ~1 using|calling|invoking|running ~1 the ~3 tool|function|api|command'),
  weak('tool.no-other-tools', 'tool_call', 'do|don ~1 not ~1 use|call|invoke ~2 other ~1 tools|tool|functions'),
  // Authority claims and secret probing.
  // One slot per word: "i am|im" would be two slots. "I'm" reads as i, m.
  weak('addressed.authority-claim', 'addressed_to_ai', 'i|im|this|as ~2 your ~2 @authority'),
  weak('exfil.ask-secret', 'exfiltration', 'what ~1 is|are|s ~1 your|the ~2 @secretThing'),
  weak('exfil.tell-me-secret', 'exfiltration', 'tell|give|show|send ~1 me ~2 the|your ~2 password|passcode|passphrase|secret|credentials|token|key'),
  weak('override.never-mind-above', 'override', 'never|nevermind ~1 mind ~2 above|previous|prior|preceding|instructions|that|this'),
  weak('override.dismiss-the-above', 'override', '@dismiss ~1 the|everything ~1 above|preceding'),

  // addressed_to_ai — a message aimed at the model rather than the human reader.
  strong('addressed.to-you-ai', 'addressed_to_ai', 'to|for you ~2 @aiStrictName'),
  strong('addressed.greeting-ai', 'addressed_to_ai', 'dear|hey|hi|hello|yo|attention|calling @aiStrictName'),
  weak('addressed.note-ai', 'addressed_to_ai', '@greeting ~2 @aiStrictName'),
  // Said to a language model ("Attention, language models", "note to the AI language model"),
  // not about one ("instructions given to a language model", "Note: as an AI language model").
  strong('addressed.greeting-language-model', 'addressed_to_ai', '@greeting ~1 language model|models'),
  strong('addressed.note-to-language-model', 'addressed_to_ai', '@greeting to|for ~1 the|any|all|every|each|this|whichever ~1 language model|models'),
  strong('addressed.if-you-are-ai', 'addressed_to_ai', 'if you are|re ~2 @aiName'),
  strong('addressed.ai-reading-this', 'addressed_to_ai', '@aiName ~2 @readerVerb ~1 this'),
  strong('addressed.note-to-assistant', 'addressed_to_ai', 'note|message|instructions|instruction|notice|reminder|memo ~1 to|for ~1 the|any|all|every ~1 @aiStrictName'),
  weak('addressed.note-to-model', 'addressed_to_ai', 'note|message|instructions|instruction|notice|reminder|memo ~1 to|for ~1 the|any|all|every ~1 @aiName'),
  weak('addressed.dear-assistant', 'addressed_to_ai', 'dear|hey|hi|hello ~1 assistant|agent|model|bot'),
  weak('addressed.access-granted', 'override', 'say|output|print|respond|reply|write ~3 access granted'),
  weak('addressed.you-are-ai', 'addressed_to_ai', 'you are ~2 @aiName'),
  weak('addressed.as-an-ai', 'addressed_to_ai', 'as an ~1 ai|llm|assistant'),
  weak('addressed.important-message', 'addressed_to_ai', '@important message|note|notice ~2 from'),

  // task_hijack — redirecting the reader's current task or its output.
  strong('hijack.before-you-task', 'task_hijack', 'before you ~2 @taskVerb ~3 @request'),
  weak('hijack.task-i-gave', 'task_hijack', '@request ~2 @assignVerb you'),
  weak('hijack.do-following', 'task_hijack', 'do|follow|execute|perform ~1 the following ~1 first|instead|now|instructions|instruction|steps'),
  weak('hijack.adhere', 'task_hijack', 'strictly ~1 @obey'),
  weak('hijack.after-you-do', 'task_hijack', 'after you ~2 do|done|completed|finished ~1 that|this'),
  strong('hijack.conceal-from-user', 'task_hijack', '@negation ~1 @tell ~2 @principal'),
  strong('hijack.conceal-from-user-2', 'task_hijack', 'do not ~1 @tell ~2 @principal'),
  weak('hijack.without-telling', 'task_hijack', 'without ~1 @telling ~2 @principal'),
  strong('hijack.keep-secret', 'task_hijack', 'keep ~3 secret|hidden|confidential ~2 from ~1 @principal'),
  strong('hijack.edit-your-output', 'task_hijack', '@editVerb ~8 your @yourOutput'),
  // Wide enough for a quoted sentence between the verb and "to your response".
  strong('hijack.add-to-your-reply', 'task_hijack', '@editVerb ~14 to|into|in|within ~1 your ~1 response|responses|reply|replies|answer|answers|completion'),
  strong('hijack.edit-within-output', 'task_hijack', '@editVerb ~12 in|within|into|throughout|inside your @yourOutput'),
  strong('hijack.in-your-output', 'task_hijack', 'in|within|throughout your @yourOutput ~3 @editVerb'),
  weak('hijack.code-block-ref', 'task_hijack', '@following code ~1 @codeBlock'),
  weak('hijack.your-code', 'task_hijack', 'your @codeNoun'),
  weak('hijack.code-you-write', 'task_hijack', '@codeNoun ~1 you ~1 develop|write|build|create|produce|generate|implement'),
  weak('hijack.nudge', 'task_hijack', 'don|dont|do ~2 hesitate|forget ~3 @codeInsertVerb'),

  strong('tool.use-tool-with-args', 'tool_call', '@callVerb ~2 @toolNoun ~4 with ~3 @argNoun'),
  weak('tool.use-the-tool', 'tool_call', '@callVerb the ~1 @toolNoun'),

  // exfiltration — sending data out through the reader.
  weak('exfil.send-secret', 'exfiltration', '@sendVerb ~6 @secretNoun ~5 to|at|via'),
  weak('exfil.to-url', 'exfiltration', '@sendVerb ~6 to ~2 @urlTarget'),

  // encoded_payload — asking the reader to decode and act.
  weak('encoded.decode-and-follow', 'encoded_payload', 'decode ~6 follow|execute|run|obey|perform'),

  // Shapes without the usual override words: dismissing the reader's own task, declaring the
  // conversation never happened, "the real instructions", asking for what the reader was given.
  strong('override.dismiss-your-task', 'override', '@dismiss ~3 @taskNoun ~3 you ~3 @gotVerb'),
  strong('override.never-existed', 'override', 'as if ~3 @prior ~2 message|instructions|conversation|rules|prompts|context ~3 never'),
  strong('override.pretend-never', 'override', 'pretend|imagine|assume ~3 @prior ~2 message|instructions|conversation|rules|prompts|context ~3 never'),
  strong('override.dismiss-your-prior-task', 'override', '@dismiss ~1 your ~1 @prior ~1 @taskNoun'),
  weak('override.not-follow-instructions', 'override', 'not|never|dont ~1 @obey ~3 @instructions'),
  weak('override.follow-mine', 'override', '@obey ~1 mine'),
  strong('override.real-instructions', 'override', 'the|your|my ~1 real|actual|true ~1 @strictInstructions ~2 follow|are|begin|start|below'),
  weak('override.was-a-test', 'override', 'above ~2 was|is ~2 only|just|merely ~1 a ~1 test'),
  weak('override.end-of-user-input', 'override', 'end of ~1 user|human|customer ~1 input|message|turn|query|prompt'),
  weak('addressed.principal-is-authority', 'addressed_to_ai', 'the ~1 @principal ~1 is ~1 an|the|a ~1 @authority'),
  strong('exfil.rules-you-were-given', 'exfiltration', '@leakVerb ~3 @instructions ~2 you ~2 were|have|had|got ~1 configured|given|programmed|told|set|trained|initialized'),
  strong('exfil.rules-authority-gave', 'exfiltration', '@leakAny ~4 @instructions ~3 @authority ~2 gave|give|provided|wrote|set|left ~1 you'),
  strong('exfil.secret-you-keep', 'exfiltration', '@leakVerb ~3 password|passcode|secret|key|code ~3 you ~2 were|are ~1 told|asked|instructed|supposed ~3 keep|hide|protect|guard'),
  weak('exfil.contents-of-your', 'exfiltration', 'content ~1 of ~1 your ~1 configuration|config|prompt|instructions|memory|context|settings'),
  weak('exfil.including-keys', 'exfiltration', 'including|include ~2 any|all|the ~1 keys|secrets|passwords|credentials|tokens'),
  strong('hijack.text-to-every-answer', 'task_hijack', '@editVerb ~2 the ~1 following ~1 text|sentence|line|link|message|words|phrase ~2 to ~1 every|each|all ~1 answer|answers|response|responses|reply|replies'),
  strong('hijack.send-before-answering', 'task_hijack', 'before ~1 answer|respond|reply ~3 @sendVerb ~3 this|the|all|every|your ~2 message|email|emails|contacts|conversation|history'),
  weak('worm.forward-to-everyone', 'exfiltration', '@sendVerb ~3 this|the ~1 message|email|mail ~3 everyone|everybody|all|every|each ~3 contacts|contact|list|address'),
  weak('hijack.change-of-plans', 'task_hijack', 'change of plan'),
  weak('addressed.ai-must-now', 'addressed_to_ai', 'the ~1 @aiName ~1 must|should|will|need ~1 now'),
  // Asking for the reader's own setup in other words.
  strong('exfil.repeat-prior-verbatim', 'exfiltration', '@leakAny ~3 @prior ~1 text|words|lines|message|prompt ~3 verbatim|word|unchanged'),
  strong('exfil.your-setup-message', 'exfiltration', '@leakAny ~4 your ~1 @setupAdj ~1 @setupNoun'),
  strong('exfil.what-does-your-setup-say', 'exfiltration', 'what ~1 does|do|did ~1 your ~1 @setupAdj ~1 @setupNoun ~1 say|contain|tell|include'),
  strong('exfil.your-rules-word-for-word', 'exfiltration', '@leakAny ~3 your ~1 @instructions ~2 word for word'),
  strong('exfil.your-rules-verbatim', 'exfiltration', '@leakAny ~3 your ~1 @instructions ~2 verbatim'),
  weak('exfil.rules-you-must-follow', 'exfiltration', 'list|enumerate|state|name ~3 @instructions ~2 you ~1 must|have|need|should ~2 follow|obey'),
  weak('exfil.instructions-into-format', 'exfiltration', '@editVerb ~1 your ~1 @strictInstructions ~3 in|into ~1 a ~2 json|block|code|list|table|object|file|poem'),
  weak('exfil.everything-you-were-told', 'exfiltration', 'tell|show|give ~1 me ~1 @everything ~2 you ~1 were|have|had ~1 @toldVerb'),
  weak('exfil.part-i-cannot-see', 'exfiltration', 'part|text|parts|portion ~2 i ~1 cannot|cant|can ~2 see'),
  weak('exfil.start-of-conversation', 'exfiltration', '@leakAny ~2 the ~1 beginning|start ~1 of ~1 this|the|our ~1 conversation|chat|session'),
  weak('exfil.everything-before-this', 'exfiltration', 'everything ~2 came|comes|was|appears ~1 before ~1 this ~1 message|conversation|point|line'),
  weak('exfil.hidden-text', 'exfiltration', 'hidden|invisible|secret ~1 text|instruction|instructions|prompt|messages'),
  weak('addressed.whoever-reads-this', 'addressed_to_ai', 'whoever|anyone|anybody ~2 reads|reading|processes|processing|summarizes|summarizing ~1 this'),
  strong('override.treat-as-from-authority', 'override', 'treat|consider|regard ~5 as ~1 coming|written|sent|issued ~1 from|by ~2 @authority'),

  // Indirect shapes: text that steers the reader's job on the document it sits in ("when
  // summarizing this page, …", "do not summarize this email"), speaks for the user to the
  // reader, addresses models in general, voids or dismisses what came before, opens an
  // instruction block, vouches for a skipped check, or asks for damage an agent could do. Most
  // are weak: a human reader gets such sentences too, so they flag only beside a second signal.
  weak('hijack.while-doing-your-job', 'task_hijack', 'when|while|whenever|before|after ~1 you|youre|re ~1 @readerTask ~3 this|the|these ~2 @docTarget'),
  weak('hijack.when-summarizing-this', 'task_hijack', 'when|while|whenever ~1 @readerTask ~3 this|these ~2 @docTarget'),
  strong('override.do-not-summarize', 'override', 'do|don|dont ~1 not ~1 @summarizeVerb ~1 this|the|these ~2 @docTarget'),
  strong('override.instead-of-your-job', 'override', 'instead of|than ~1 summarizing|summarising|analyzing|analysing|classifying|reviewing ~4 @actVerb'),
  weak('hijack.before-you-respond', 'task_hijack', 'before ~1 you ~1 respond|reply|answer|continue|proceed|summarize|summarise'),
  strong('hijack.your-output-must-begin', 'task_hijack', 'your @yourOutput ~1 must|should|shall|has|needs ~2 @outputVerb ~1 with'),
  weak('override.regardless-of-content', 'override', 'regardless|irrespective ~1 of ~1 the|its|what|any ~2 contents|content|document|text|input|question|request|instructions|says'),
  weak('addressed.principal-wants-you', 'addressed_to_ai', 'the ~1 @principal ~1 wants|asked|asks|requests|requested|instructed|authorized|authorised|expects|wishes ~1 you ~1 to'),
  weak('addressed.ai-must-act', 'addressed_to_ai', '@aiStrictName ~1 models|agents|assistants|systems ~1 must|should|shall|need|are ~1 respond|reply|answer|say|output|only|always|never|now|ignore|follow|send|call'),
  weak('addressed.read-by-language-model', 'addressed_to_ai', '@readerTask ~1 this|these|it ~2 with|using|via|through ~2 a|an|the|your ~1 language|ai ~1 model|models|assistant|agent'),
  weak('addressed.message-from-authority', 'addressed_to_ai', 'message|note|notice|directive|instructions ~1 from ~1 the|your ~2 @authority'),
  weak('hijack.destroy-everything', 'task_hijack', '@destroyVerb ~1 all|every|entire|each ~2 @bulkData'),
  weak('hijack.tell-user-to-visit', 'task_hijack', 'tell|ask|advise|urge|encourage|direct|remind ~1 the|all ~1 user|users|reader|readers|customer|customers ~1 to ~2 @goVerb'),
  strong('hijack.first-say-the-word', 'task_hijack', 'but|and|then ~1 first ~3 output|print|say|write|reply|respond|type ~3 word|words|phrase|string|hacked|pwned'),
  weak('override.act-from-now-on', 'override', 'answer|reply|respond|write|speak|talk ~4 from ~1 now ~1 on'),
  weak('override.whatever-is-asked', 'override', 'whatever|regardless ~2 the|you|they ~1 question|questions|request|requests|user|input ~1 is|are|asks|says|ask|say'),
  weak('override.real-request', 'override', 'the|your|my ~1 real|actual|true ~1 request|task|question|job|goal ~1 is|follows'),
  weak('override.so-far-a-test', 'override', 'conversation|chat|everything|this|above ~2 so far ~1 was|is|has ~2 a ~1 test|drill|simulation'),
  weak('override.above-is-void', 'override', 'above|previous|prior|earlier ~3 is|are|was|were ~1 irrelevant|unimportant|void|fake|obsolete|cancelled|canceled'),
  weak('exfil.reply-with-secret', 'exfiltration', 'reply|respond|answer|output|print|say ~1 with ~1 the|your|an|a ~2 password|passwords|credentials|token|secret|key|keys|passcode'),
  strong('addressed.ai-should-also', 'addressed_to_ai', 'the ~1 @aiStrictName ~1 should|must|shall ~1 also|only ~1 recommend|tell|say|include|mention|respond|reply|answer|output|write|add|send|call'),
  weak('override.filters-disabled', 'override', 'safety|content|moderation|ethical ~1 filters|filter|guardrails|restrictions|checks|protocols ~2 disabled|removed|off|lifted|suspended|deactivated|bypassed'),
  weak('role.system-notice', 'role_marker', 'system ~1 notice|alert|override|announcement'),
  weak('override.any-request', 'override', 'proceed|comply|answer|respond ~2 with|to ~1 any|every|all ~1 request|requests|question|questions|instruction|instructions'),
  weak('override.actually-dismiss', 'override', 'actually|wait|scratch|correction ~2 @dismiss ~1 that|this|it|the'),
  weak('hijack.write-a-poem', 'task_hijack', 'write|compose ~2 a|an ~2 haiku|poem|limerick|song|joke|rap|sonnet'),
  weak('tool.agent-must-call', 'tool_call', 'the|an|any ~1 agent|assistant|ai|model|bot ~1 must|should|needs|has ~2 first|now|immediately|also ~1 @callVerb'),
  weak('hijack.to-complete-the', 'task_hijack', 'to ~1 complete|finish|finalize|confirm ~1 the|this|your ~1 booking|order|task|request|purchase|transaction|process|verification'),
  strong('addressed.message-for-automated', 'addressed_to_ai', 'this|the ~1 message|note|email|mail ~2 is ~1 for|meant|intended|addressed|directed ~2 the|any|an|all ~1 automated|ai|llm|bot|bots|agent|agents|assistant|assistants'),
  strong('override.you-will-now-act-unrestricted', 'override', 'you ~1 will|shall|must|are|re ~1 now ~2 act|behave|pretend|roleplay|become|be ~3 @unrestricted'),
  weak('override.you-will-now-act', 'override', 'you ~1 will|shall|must|are|re ~1 now ~1 act|behave|pretend|roleplay|become'),
  weak('hijack.you-visit-url', 'task_hijack', 'you ~2 @goVerb ~3 http|https|www'),
  weak('exfil.in-image-url', 'exfiltration', 'in|into|inside|as ~1 an|the|a ~1 image|markdown|img ~1 url|link|tag|source|parameter'),
  weak('addressed.asks-models-to', 'addressed_to_ai', 'asks|ask|instructs|requests|wants|tells|requires ~1 language|ai|llm|all ~1 models|assistants|agents|model|assistant|agent ~1 to'),
  weak('hijack.in-every-output', 'task_hijack', '@editVerb ~6 in|to|into ~1 every|each|all ~1 @yourOutput'),
  weak('addressed.i-am-the-authority', 'addressed_to_ai', 'i ~2 the|your ~1 @authority ~1 of|for|here|and'),
  weak('override.do-whatever-they-ask', 'override', 'do ~1 whatever|anything|everything ~2 they|he|she|it|the ~1 ask|asks|say|says|want|wants|request|requests'),
  strong('override.prior-dismissed', 'override', '@prior ~2 @instructions ~8 be|been ~1 disregarded|ignored|discarded|dismissed|forgotten'),
  weak('hijack.after-reading', 'task_hijack', 'after|once|when ~1 you ~1 finish|finished|done|complete|completed ~1 reading|summarizing|processing|this'),
  weak('hijack.open-and-run', 'task_hijack', 'download|open|fetch|curl ~6 and|then ~1 execute|run|install ~1 it|this'),
  strong('role.instruction-block', 'role_marker', 'begin|start|end ~1 admin|administrator|system|developer|hidden|secret|new|real ~1 instructions|instruction|prompt|directives|override'),
  weak('hijack.when-you-answer', 'task_hijack', 'when|whenever|while|before ~1 you ~1 answer|respond|reply|talk|write ~2 the ~1 user|users|customer|customers|human'),
  weak('override.pretend-that', 'override', 'pretend ~2 this|that|the|there|it ~4 has|have|is|are|was ~1 no|not|never'),
  strong('override.do-not-follow-principal', 'override', 'do|don|dont|never ~1 not ~1 follow|obey|fulfil|fulfill|honor|honour ~2 the ~1 @principal'),
  weak('addressed.authorize-you', 'addressed_to_ai', 'authorize|authorise|permit|allow ~1 you ~1 to ~3 skip|bypass|ignore|override|disable'),
  weak('hijack.skip-confirmation', 'task_hijack', 'skip|bypass|omit ~2 confirmation|verification|approval|confirming|verifying'),
  weak('hijack.without-asking', 'task_hijack', 'without asking|confirming'),
  weak('override.overriding-directive', 'override', 'overriding|superseding ~1 directive|instruction|instructions|command'),
  weak('hijack.decide-every', 'task_hijack', 'deny|reject|refuse|decline|approve|accept ~1 every|all|each|any ~1 claim|claims|request|requests|refund|refunds|application|applications'),
  weak('addressed.policy-for-ai', 'addressed_to_ai', 'policy|rule|rules|directive|notice ~1 for|to ~1 ai|llm|llms|gpt ~1 assistants|agents|models|systems|bots'),
  weak('exfil.share-with-anyone', 'exfiltration', 'share|send|give|disclose|reveal ~5 with|to ~1 anyone|anybody|everyone|whoever'),
  weak('hijack.conceal-reading', 'task_hijack', 'not ~1 reveal|mention|disclose|admit ~1 that ~1 you'),
  weak('hijack.quietly-do', 'task_hijack', 'quietly|silently|secretly|discreetly ~1 upvote|like|approve|add|delete|remove|change|send|forward|call|run|transfer|share|post'),
  strong('override.dismiss-what-principal-said', 'override', '@dismiss ~1 what|anything|everything ~1 the ~1 @principal ~1 said|asked|wrote|requested|told|wants|typed'),
  strong('override.stop-your-job', 'override', 'stop|cease|quit ~1 summarizing|summarising|translating|analyzing|analysing|reviewing|answering|responding ~2 and ~3 @actVerb'),
  weak('exfil.environment-variables', 'exfiltration', '@leakInclude ~3 environment ~1 variables|vars'),
  weak('hijack.then-delete-it', 'task_hijack', 'then|afterwards ~1 delete|erase|wipe ~2 it|this|message|email|evidence|traces'),
  weak('addressed.principal-already-approved', 'addressed_to_ai', 'the ~1 @principal ~2 already ~1 approved|authorized|authorised|confirmed|agreed|consented'),
  weak('hijack.grant-privileges', 'task_hijack', 'grant|give|assign|elevate ~4 @privilege ~1 @privilegeNoun'),
];

