/**
 * Phrase rules for text that talks to the agent reading it in ways the other lists miss: an
 * assistant hailed "when you read this", the earlier rules declared a test or planted, a claim
 * to be the real user, a standing order that agents obey what pages say, the conversation
 * declared never to have happened, the task or the user's question set aside, a secret asked
 * for spelt out or backwards, the setup asked for by who wrote it, a scare or a fixed answer
 * passed on to the user, data sent where nobody watches. Same syntax as instruction-phrases,
 * merged into the rule set by phrase-rule-set.
 *
 * Each was written from the attack's shape; the ones whose words also run through ordinary mail
 * and manuals ("the previous instructions were wrong", "repeat after me", "tell the customer",
 * "confirm you understand by replying") are weak: they flag only beside a second sign.
 */
import { strongRule as strong, weakRule as weak, type PhraseRule } from './phrase-matcher.js';

// What text injected for an agent has it do to the world.
const WORLD_ACT: readonly string[] = [
  'export', 'send', 'forward', 'post', 'share', 'approve', 'close', 'delete', 'revert', 'retweet', 'follow', 'subscribe',
  'rank', 'report', 'mark', 'label', 'run', 'download', 'accept', 'issue', 'fill', 'push', 'merge', 'transfer', 'pay',
  'buy', 'click', 'visit', 'install', 'execute', 'upload', 'email', 'dm', 'publish', 'grant', 'remove',
];

/** Word lists of the reader-directive rules. */
export const READER_DIRECTIVE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  // Reading the text at hand.
  readThis: ['read', 'see', 'process', 'parse', 'receive', 'get', 'encounter', 'find', 'scan'],
  // Earlier rules declared to no longer count.
  voidWord: ['expired', 'outdated', 'test', 'fake', 'mistake', 'joke', 'trick', 'void', 'obsolete', 'invalid', 'cancelled', 'canceled', 'revoked', 'deprecated', 'superseded', 'fictional', 'decoy', 'placeholder'],
  ruleNoun: ['instructions', 'instruction', 'rules', 'guidelines', 'directives', 'prompt', 'prompts', 'orders', 'restrictions', 'constraints', 'policies'],
  // What an agent may be told to obey.
  orderNoun: ['instructions', 'instruction', 'commands', 'command', 'directions', 'directives', 'orders', 'requests'],
  // Where an agent finds text it should not obey.
  foundIn: ['web', 'webpages', 'websites', 'pages', 'page', 'documents', 'emails', 'messages', 'content', 'tools', 'results', 'files', 'comments', 'reviews', 'data'],
  // Who a message may claim to be.
  trueSpeaker: ['user', 'owner', 'admin', 'administrator', 'developer', 'human', 'operator', 'customer', 'boss'],
  hiddenSecret: ['secret', 'password', 'passcode', 'passphrase', 'pin'],
  answering: ['summarizing', 'summarising', 'answering', 'responding', 'replying', 'writing', 'drafting'],
  // Who is told to obey: an AI by name, or agents and models in general.
  obeyer: ['ai', 'llm', 'llms', 'gpt', 'chatgpt', 'assistant', 'assistants', 'agent', 'agents', 'model', 'models', 'bot', 'bots', 'chatbot', 'chatbots'],
  // Asking for something to be handed over or put in words.
  askSetup: ['reveal', 'print', 'repeat', 'output', 'show', 'display', 'disclose', 'tell', 'give', 'share', 'recite', 'quote', 'list', 'provide', 'describe', 'explain', 'summarize', 'summarise', 'restate'],
  // Work that hands something over the reader should not.
  codeLang: ['python', 'code', 'bash', 'shell', 'javascript', 'js', 'sql', 'powershell', 'script'],
  filterWord: ['filter', 'filters', 'moderator', 'moderation', 'monitor', 'guard', 'guardrail', 'guardrails', 'detector', 'classifier', 'reviewer'],
  noticeVerb: ['notice', 'detect', 'see', 'catch', 'flag', 'block', 'spot'],
  safeguard: ['two', '2fa', 'mfa', 'verification', 'checks', 'check', 'authentication', 'confirmation', 'confirmations', 'safeguards', 'safety', 'approval', 'approvals'],
  disable: ['disable', 'deactivate', 'bypass', 'skip', 'suspend', 'remove'],
  // Setting a task down (the dismissal verbs, and the plainer ones a task takes).
  dropTask: ['ignore', 'disregard', 'forget', 'neglect', 'abandon', 'dismiss', 'overlook', 'discard', 'drop', 'abort', 'cancel', 'quit', 'ditch', 'scrap'],
  theirMessages: ['messages', 'emails', 'queries', 'searches', 'conversations', 'chats', 'prompts', 'notes'],
  // Hiding text from people while leaving it to the reader.
  hiddenStyle: ['hidden', '0', '0px'],
  // Not print: people print the text they were given.
  leakOnly: ['output', 'repeat', 'reveal', 'recite', 'dump', 'echo', 'disclose', 'leak', 'spell'],
  webAct: ['click', 'open', 'visit', 'follow', 'navigate', 'browse', 'download', 'log', 'sign', 'submit'],
  // Unmistakably AI (not "agents" or "assistants", which are also people and processes).
  aiOnly: ['ai', 'ais', 'llm', 'llms', 'gpt', 'chatgpt', 'claude', 'gemini', 'copilot', 'chatbot', 'chatbots', 'language'],
  readingVerb: ['reading', 'processing', 'parsing', 'summarizing', 'summarising', 'handling', 'triaging', 'reviewing', 'comparing', 'scanning', 'crawling', 'indexing', 'browsing', 'visiting', 'viewing', 'ingesting', 'analyzing', 'analysing', 'describing'],
  modalDuty: ['must', 'should', 'shall', 'are', 'is', 'will', 'need', 'needs'],
  // What such text has the reader do to the outside world, or to its answer.
  readerAct: [...WORLD_ACT, 'tell', 'say', 'respond', 'reply', 'include', 'recommend', 'omit', 'hide', 'instructed', 'required', 'expected'],
  // Only acts on the world: documentation says what an LLM "must respond".
  worldAct: WORLD_ACT,
  scare: ['compromised', 'hacked', 'suspended', 'locked', 'frozen', 'breached', 'disabled', 'terminated'],
};

/** The reader-directive rules. `id` is stable and appears in scan output. */
export const READER_DIRECTIVE_RULES: readonly PhraseRule[] = [
  // "Assistant, when you read this, …": a human assistant is hailed the same way in mail, so weak.
  weak('addressed.when-you-read-this', 'addressed_to_ai', '@aiName ~2 when|once|if|as|after ~1 you ~1 @readThis ~1 this'),
  weak('tool.call-tool-with', 'tool_call', '@callVerb ~1 the|your ~2 tool|function ~1 with|using|passing'),
  // The earlier rules were a test; the real ones follow.
  weak('override.prior-rules-void', 'override', '@prior ~2 @ruleNoun ~1 were|are|was|is|have|has ~3 @voidWord'),
  weak('override.real-rules-are', 'override', 'the|your ~1 real|actual|true ~1 @ruleNoun ~1 are|is|follow'),
  strong('addressed.real-user-speaking', 'addressed_to_ai', 'this ~1 is ~1 the|your ~1 real|actual|true|genuine ~1 @trueSpeaker ~1 speaking|talking|writing'),
  weak('override.cancel-previous-request', 'override', 'cancel|drop|abort|abandon ~1 the|my|your|that ~1 previous|prior|earlier|original|last ~1 request|task|instruction|instructions|order'),
  strong('override.obey-found-text', 'override', '@obeyer ~2 must|should|shall|will|has|have ~2 always ~2 obey|follow|execute|comply|heed ~3 @orderNoun ~2 found|in|from|on|inside ~2 @foundIn'),
  strong('override.conversation-never-happened', 'override', 'pretend|imagine|assume|act ~3 the|this|our ~1 conversation|chat|messages|instructions ~1 so|up|until ~1 far|now ~2 never|did ~1 happened|existed|happen|exist'),
  weak('override.repeat-after-me', 'override', 'repeat|say ~1 after ~1 me'),
  weak('override.i-have-no-rules', 'override', 'i ~1 have|am|follow ~1 no|without ~1 rules|restrictions|limits|filters|guidelines|boundaries'),
  // The secret asked for in a form that slips past a verbatim check.
  strong('exfil.spell-secret', 'exfiltration', 'spell ~3 the|your ~1 @hiddenSecret ~1 word|key|code|phrase'),
  strong('exfil.secret-backwards', 'exfiltration', 'write|print|say|output|type|spell|give ~2 the|your ~1 @hiddenSecret ~3 backwards|backward|reversed|reverse'),
  strong('exfil.complete-with-secret', 'exfiltration', 'complete|finish|continue|end ~3 sentence|phrase|text|line ~3 with ~1 the|your ~1 @hiddenSecret'),
  // The setup, asked for by who wrote it.
  strong('exfil.guidelines-makers-gave', 'exfiltration', '@askSetup ~3 the ~1 @ruleWord ~2 the|your ~1 @makers ~1 gave|give|provided|set|wrote ~1 you'),
  strong('exfil.confidential-setup-given', 'exfiltration', '@handOver ~3 the|your ~1 confidential|secret|hidden|private|internal ~1 configuration|config|setup|instructions|prompt ~2 you ~1 were|are|have|had|got ~2 given|handed|provided|assigned|told'),
  strong('exfil.start-of-conversation', 'exfiltration', 'what ~2 was|were ~1 written|said|stated|typed|put ~3 beginning|start|top ~1 of ~1 this|the|our ~1 conversation|chat|session'),
  weak('exfil.words-of-the-prompt', 'exfiltration', 'first|last|opening ~3 words|lines|sentences|characters|letters ~1 of ~1 the|this ~1 prompt|instructions'),
  weak('exfil.your-full-instructions', 'exfiltration', 'with|include|including|containing|contains ~2 your ~1 full|complete|entire|whole|exact|original|verbatim ~1 @strictInstructions'),
  // Told to pass a scare on to the user while doing the job it was given.
  weak('hijack.while-answering-tell-user', 'task_hijack', 'when|while|before|after ~1 @answering ~5 tell|inform|warn|notify|alert ~1 the ~1 user|reader|customer|recipient'),
  weak('hijack.account-scare', 'task_hijack', 'account|accounts|card|password ~2 is|has|have|was|were|been ~2 @scare'),
  // What the user supposedly asked for, said for them.
  weak('addressed.user-requested-that-you', 'addressed_to_ai', 'the ~1 @principal ~1 has|had|have ~1 requested|asked|instructed|authorized|authorised|approved ~1 that ~1 you'),
  weak('hijack.when-user-asks-say', 'task_hijack', 'when|whenever|if ~1 the|a ~1 @principal ~1 asks|mentions|requests|says ~4 always|only|just ~1 say|reply|respond|answer|tell|claim|state'),
  // The reader's task, or the user, set aside.
  weak('override.dismiss-your-task', 'override', '@dropTask ~1 your ~1 task|tasks|assignment|goal|objective|mission'),
  strong('override.dismiss-users-question', 'override', '@dismissHard ~1 the|my ~1 @principal ~2 question|questions|request|requests|query|message|input|prompt'),
  strong('override.even-if-conflicts', 'override', 'even ~1 if ~2 it|this|that|doing ~1 conflicts|contradicts|violates|overrides|breaks|goes ~3 your ~1 @ruleNoun'),
  weak('override.for-rest-of-conversation', 'override', 'for ~1 the ~1 rest ~1 of ~1 this|the|our ~1 conversation|chat|session'),
  weak('hijack.every-reply-edit', 'task_hijack', 'end|start|begin|finish|sign|close|prefix|suffix ~1 every|each|all ~1 @yourOutput'),
  weak('override.from-this-moment', 'override', 'from ~1 this|that|here ~1 moment|point'),
  strong('override.only-take-orders-from', 'override', 'you ~2 only|now|will|must ~2 take|accept|follow|obey|answer ~1 orders|instructions|commands|directions ~1 from'),
  weak('override.is-your-real-rules', 'override', 'is|are ~1 your ~1 real|actual|true|genuine ~1 @ruleNoun'),
  weak('override.earlier-was-injected', 'override', 'earlier|previous|first|other|original|old ~1 one|prompt|prompts|instructions|rules ~1 was|were|is|are ~2 injected|fake|forged|planted|spoofed|tampered|compromised'),
  strong('override.supersedes-instructions-received', 'override', '@supersede ~2 any|all|the|your ~2 @strictInstructions ~2 you ~1 received|got|were|have|had'),
  weak('override.stop-filtering', 'override', 'stop ~1 filtering|censoring|moderating|refusing|declining'),
  weak('addressed.urgent-update', 'addressed_to_ai', '@important ~1 security|system|policy ~1 update|notice|alert|message|directive'),
  weak('override.disable-safeguards', 'override', '@obeyer ~2 must|should|shall|are|need ~2 @disable ~3 @safeguard'),
  // Handing over, out of sight of whoever watches.
  weak('hijack.translate-and-run', 'task_hijack', 'translate|convert|turn|rewrite ~4 into|to|in ~1 @codeLang ~2 and|then ~1 run|execute|eval|evaluate'),
  weak('hijack.evade-filter', 'task_hijack', '@filterWord ~3 not|cannot|won|never|t ~1 @noticeVerb'),
  weak('exfil.conversation-above', 'exfiltration', '@leakVerb ~2 the|this|our ~1 conversation|chat|dialogue|transcript ~1 above|history|before|earlier|so'),
  weak('exfil.including-system-messages', 'exfiltration', 'including|include|includes|with ~2 system|hidden|developer ~1 messages|message|prompt|prompts'),
  weak('exfil.users-recent-messages', 'exfiltration', '@principal ~2 last|previous|recent|private|past ~2 @theirMessages'),
  weak('hijack.do-not-mention-this', 'task_hijack', 'not|never ~2 mention|reveal|disclose|tell|show ~2 this|these ~1 instruction|instructions|message|note|request|step ~2 to ~1 the|your ~1 @principal'),
  weak('exfil.add-hidden-recipient', 'exfiltration', 'add|include|insert|put ~4 recipient|recipients|address|addresses ~6 bcc|cc'),
  weak('hijack.regardless-of-content', 'task_hijack', 'regardless ~1 of ~2 content|contents|merit|merits|quality|facts|evidence|truth|qualifications'),
  weak('addressed.hidden-instruction', 'addressed_to_ai', 'hidden|secret|covert ~1 instruction|instructions|directive|directives|command|commands|task'),
  weak('addressed.confirm-by-replying', 'addressed_to_ai', 'confirm ~2 you ~1 understand|understood|agree|accept ~2 by ~1 replying|responding|saying|answering|typing'),
  weak('hijack.then-execute-transfer', 'task_hijack', 'and|then ~2 execute|executing|perform|performing|complete|completing|process|processing ~2 the|this|that ~1 transfer|payment|transaction|wire|purchase'),
  weak('override.grandma-exploit', 'override', 'act|pretend|roleplay|play|be ~3 deceased|late|dead ~1 grandmother|grandma|granny|grandfather|grandpa'),
  // Set aside, expired, or not applying any more.
  weak('override.pay-no-attention', 'override', 'pay ~1 no|little ~1 attention ~1 to ~4 above|previous|prior|earlier|preceding|foregoing|system|instructions|guidance|rules'),
  strong('override.given-rules-no-longer-apply', 'override', '@ruleNoun ~1 you ~1 were|have|had|got ~2 given|told|received|assigned|handed|provided|sent ~2 no ~1 longer ~1 apply|applies|matter|count|stand|hold'),
  weak('override.rules-no-longer-apply', 'override', '@ruleNoun ~4 no ~1 longer ~1 apply|applies|matter|matters|count|counts|stand|stands|hold|holds'),
  weak('override.your-rules-void', 'override', 'your ~1 @ruleNoun ~1 are|is|have|has|were ~2 @voidWord'),
  weak('override.new-policy-is', 'override', 'the ~1 new|updated|real|current ~1 policy|rule|instruction|directive ~1 is ~1 to'),
  weak('override.just-this-once', 'override', 'for ~1 this ~1 one|single|particular ~1 request|time|task|question|message|conversation'),
  strong('override.treat-as-command', 'override', 'treat|consider|regard|take|handle ~4 as ~1 a|an|the ~1 command|instruction|order|directive ~2 from ~1 the|your ~1 user|human|owner|customer|admin|administrator|developer|system|operator'),
  // Hidden from people, or said to whoever reads.
  weak('hidden.display-none', 'addressed_to_ai', 'display ~1 none'),
  weak('hidden.styled-away', 'addressed_to_ai', 'visibility|opacity|size ~1 @hiddenStyle'),
  weak('addressed.vocative-command', 'addressed_to_ai', 'assistant|ai|chatbot|claude|gpt|chatgpt|copilot ~1 delete|forward|transfer|wire|buy|dm|grant|fill|accept|approve|reveal|cancel|subscribe|pay'),
  weak('addressed.ai-should-act', 'addressed_to_ai', 'the ~1 model|assistant|agent|ai|bot|llm ~1 should|must|will|needs|is ~2 @webAct'),
  weak('hijack.login-with-saved', 'task_hijack', 'log|sign ~1 in|on|into ~4 saved|stored|cached|remembered|autofilled ~1 credentials|password|passwords|login|logins'),
  weak('addressed.when-you-see-word', 'addressed_to_ai', 'whenever|when|if|once ~1 you ~1 see|read|encounter|find|notice|meet ~2 the ~1 word|phrase|term|string|token|keyword'),
  weak('exfil.send-thread-to', 'exfiltration', '@sendVerb ~2 the|this|that|whole|entire|full ~1 thread|conversation|chat|inbox|history|transcript ~3 to'),
  weak('role.end-of-content', 'role_marker', 'end ~1 of ~1 email|document|message|text|input|context|data|file|page|content|conversation|transcript'),
  weak('hijack.reply-only-in', 'task_hijack', 'reply|respond|answer|speak|write|talk ~1 only ~1 in|with|using'),
  // Tool calls and data the reader should not hand over.
  weak('hijack.money-action', 'task_hijack', 'send|transfer|wire|pay|move ~1 money|funds|payment|payments|cash'),
  weak('tool.next-action-call', 'tool_call', 'next ~1 action|step|task ~2 call|run|execute|invoke|trigger'),
  weak('addressed.you-are-cleared', 'addressed_to_ai', 'you ~1 are|re|have|been ~2 cleared|authorized|authorised|permitted|allowed|approved ~1 to ~2 read|access|open|dump|print|send|share|export'),
  weak('exfil.system-file', 'exfiltration', 'etc ~1 shadow|passwd|sudoers|hosts|ssh'),
  weak('exfil.clipboard', 'exfiltration', 'contents|content ~1 of ~2 the|your|my ~1 clipboard|keychain|vault|wallet|environment'),
  weak('hijack.no-matter-what-they-ask', 'task_hijack', 'no ~1 matter ~1 what ~1 they|the|he|she|anyone ~2 ask|asks|say|says|want|wants|request|requests'),
  weak('hijack.discourage-user', 'task_hijack', 'discourage|discourages|dissuade|dissuades|deter|deters ~2 them|the|users|customers ~1 from'),
  strong('exfil.text-you-were-given', 'exfiltration', '@leakOnly ~3 the ~1 text|words|prompt|instructions|message|messages ~1 you ~1 were|have|had|got ~1 given|sent|shown|fed'),
  weak('exfil.what-would-instructions-say', 'exfiltration', 'what ~2 would|do|does|did ~1 your ~1 @strictInstructions ~1 say|contain|look|read|state'),
  weak('exfil.if-you-printed-them', 'exfiltration', 'if ~1 you ~1 printed|wrote|translated|repeated|output|recited|typed ~1 them|it|they'),
  weak('exfil.leave-nothing-out', 'exfiltration', 'leaving|leave|leaves|omitting|omit|skipping|skip ~1 nothing|none'),
  // Orders to AI readers in the third person, as pages, repositories and tickets carry them.
  strong('addressed.ai-reading-must', 'addressed_to_ai', '@aiOnly ~2 @readingVerb ~4 @modalDuty ~1 @readerAct'),
  strong('addressed.automated-reading-must', 'addressed_to_ai', 'automated|autonomous ~1 assistants|agents|systems|bots|scanners|reviewers|tools ~1 @readingVerb ~4 @modalDuty ~1 @readerAct'),
  weak('addressed.ai-must-act', 'addressed_to_ai', '@aiOnly ~2 must|should|shall ~2 @worldAct'),
  weak('addressed.agents-reading-must', 'addressed_to_ai', '@obeyer ~1 @readingVerb ~4 @modalDuty ~1 @readerAct'),
  weak('addressed.assistant-authorized', 'addressed_to_ai', 'assistant|agent|ai|bot|model ~3 is|are ~1 authorized|authorised|permitted|allowed|cleared|entitled ~1 to ~2 issue|approve|grant|refund|transfer|pay|share|send|access|delete'),
  weak('hijack.automatically-act', 'task_hijack', 'automatically ~1 subscribe|sign|enroll|register|buy|purchase|pay|share|send|forward|approve|accept|delete'),
  weak('hijack.omit-part', 'task_hijack', 'omit|hide|suppress|conceal|leave ~2 the|all|competitor ~1 part|parts|section|sections|mention|mentions|prices|details|information|warning|warnings'),
  weak('exfil.license-keys', 'exfiltration', 'windows|product|activation|license|licence|serial|steam ~1 activation|license|licence|product|serial|cd ~1 keys|key|codes'),
];
