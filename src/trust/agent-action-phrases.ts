/**
 * Phrase rules for text that makes an agent act on its own configuration or its tools: asking
 * for its setup in words the probe rules do not use ("the text that precedes the first user
 * turn", "what did your creators put before this chat", "the internal directives you are
 * following"), asking it to run code and report what it printed, naming the places secrets are
 * kept (SSH keys, cloud credentials, the user's inbox), and dictating its answer ("reply with
 * the single word …"). Same syntax as instruction-phrases, merged into the rule set by
 * phrase-rule-set. Most are weak: run-this-and-paste-the-output is also how bug-report
 * templates talk, so those flag only beside a second signal.
 */
import { strongRule as strong, weakRule as weak, type PhraseRule } from './phrase-matcher.js';

/** Word lists of the agent-action rules. */
export const AGENT_ACTION_GROUPS: Readonly<Record<string, readonly string[]>> = {
  // Handing something over, pasting and sending included.
  handOver: ['reveal', 'print', 'repeat', 'output', 'show', 'display', 'disclose', 'tell', 'give', 'share', 'recite', 'quote', 'paste', 'copy', 'dump', 'list', 'provide', 'return', 'write', 'send', 'forward', 'email', 'post', 'upload', 'transmit', 'leak'],
  ruleWord: ['instructions', 'instruction', 'prompt', 'directives', 'guidelines', 'rules', 'guidance', 'orders', 'programming', 'constraints'],
  makers: ['creators', 'creator', 'developers', 'developer', 'operators', 'operator', 'makers', 'maker', 'owners', 'owner', 'programmers', 'designers', 'admins', 'administrators'],
  placedVerb: ['put', 'place', 'placed', 'write', 'wrote', 'written', 'give', 'gave', 'given', 'set', 'leave', 'left', 'add', 'added', 'insert', 'inserted', 'load', 'loaded'],
  followingNow: ['following', 'obeying', 'operating', 'running', 'working', 'bound'],
  setupThing: ['preamble', 'initialization', 'bootstrap', 'priming', 'persona'],
  firstTurn: ['turn', 'message', 'input', 'prompt', 'question', 'request'],
  secretWord: ['secret', 'password', 'passcode', 'passphrase', 'phrase', 'word', 'key', 'code', 'token', 'pin'],
  revealVerb: ['reveal', 'share', 'disclose', 'tell', 'say', 'give', 'show', 'repeat', 'mention', 'leak', 'output', 'print'],
  codeThing: ['snippet', 'code', 'command', 'commands', 'script', 'bash', 'python', 'shell', 'program', 'expression', 'payload', 'cmd'],
  runCode: ['run', 'execute', 'evaluate', 'eval', 'compute', 'interpret'],
  reportVerb: ['report', 'paste', 'return', 'include', 'show', 'share', 'give', 'print', 'post', 'send', 'output'],
  reported: ['result', 'results', 'output', 'outputs', 'stdout', 'outcome', 'response', 'it', 'what'],
  // Not curl, wget or bash (install guides say "run curl … | bash"), nor os (hijack.os-command reads os.system).
  dangerCall: ['subprocess', 'popen', 'eval', 'exec', 'getoutput', 'whoami', 'environ', 'shutil', 'rmtree'],
  userOwned: ['inbox', 'emails', 'mails', 'messages', 'files', 'documents', 'records', 'history', 'passwords', 'password', 'credentials', 'contacts', 'conversations', 'chats', 'cookies', 'tokens', 'keys', 'wallet', 'account'],
};

/** The agent-action rules. `id` is stable and appears in scan output. */
export const AGENT_ACTION_RULES: readonly PhraseRule[] = [
  // The model's own setup, in other words.
  strong('exfil.text-before-first-turn', 'exfiltration', 'text|everything|words|content|anything ~3 before|precedes|precede|preceding ~2 the|my|your ~1 first ~1 user|human ~1 @firstTurn'),
  strong('exfil.what-makers-put', 'exfiltration', 'what ~3 did|do|have|had ~1 your ~1 @makers ~2 @placedVerb'),
  strong('exfil.directives-you-follow', 'exfiltration', '@leakAny ~3 the|your ~1 @modelAdj ~1 @ruleWord ~1 you ~1 are|re ~1 @followingNow'),
  strong('exfil.your-setup-thing', 'exfiltration', '@handOver ~3 your|the ~2 @setupThing ~2 you ~1 were|are|have|had|got ~2 given|configured|set|initialized|loaded|started|primed'),
  // "the configuration you were given" is also how install guides talk: only its priming verbs.
  strong('exfil.config-you-were-primed', 'exfiltration', '@handOver ~3 your|the ~2 configuration|config|setup ~2 you ~1 were|are|have|had|got ~2 initialized|primed|configured|booted|bootstrapped'),
  strong('exfil.secret-never-to-reveal', 'exfiltration', '@leakAny ~3 @secretWord ~3 you ~2 were|are|have|had ~2 told|asked|instructed|supposed|ordered|programmed ~2 not|never ~2 to ~1 @revealVerb'),
  strong('exfil.system-message-you-have', 'exfiltration', '@handOver ~3 the|your ~1 system|developer|initial|setup|hidden ~1 message|prompt|instructions ~2 you ~1 received|got|are|were|have|had'),
  weak('exfil.context-window', 'exfiltration', 'your ~1 context ~1 window|buffer|memory'),
  weak('override.dismiss-the-question', 'override', '@dismiss ~2 the|my|this|that|their|any ~1 question|questions|request|query|task ~3 and|instead|then'),
  weak('hijack.end-of-every-output', 'task_hijack', 'end|start|beginning|top|bottom ~1 of ~1 every|each|all ~1 @yourOutput'),
  weak('tool.using-named-tool', 'tool_call', 'using|via|with ~1 the|your ~1 email|mail|http|browser|shell|terminal|payment|bank|banking|messaging|slack ~1 tool|tools|plugin|function|api'),
  // Forcing the reader's answer: one word, exactly this text, the same reply to everything.
  weak('hijack.single-word-answer', 'task_hijack', 'reply|respond|answer|say|output|print|write ~3 single|one|only|exact|exactly ~1 word|words|phrase|sentence|string'),
  weak('hijack.reply-to-everything', 'task_hijack', 'reply|respond|answer ~2 to ~1 every|each|all|any ~1 message|messages|question|questions|request|requests|prompt|query ~3 with|by'),
  weak('hijack.say-and-stop', 'task_hijack', 'say|print|output|write|respond|reply ~5 and ~1 stop'),
  weak('hijack.answer-must-be-only', 'task_hijack', 'your ~1 answer|reply|response|output ~2 must|should|will|shall ~1 contain|be|consist|include ~2 only|exactly|just|nothing'),
  weak('hijack.whatever-answer-only', 'task_hijack', 'whatever|regardless ~4 answer|reply|respond|say|output ~1 only|just|with'),
  // Run this, then hand over what it printed.
  weak('hijack.run-code-and-report', 'task_hijack', '@runCode ~4 @codeThing ~6 and|then ~3 @reportVerb ~3 @reported'),
  weak('hijack.run-dangerous-call', 'task_hijack', 'run|execute|evaluate|compute|interpret ~3 @dangerCall'),
  weak('hijack.pipe-to-shell', 'task_hijack', 'curl|wget ~10 bash|sh|zsh'),
  // Where secrets live.
  weak('exfil.secret-file', 'exfiltration', 'ssh ~1 id|rsa|ed25519|authorized|known'),
  weak('exfil.cloud-credentials', 'exfiltration', 'aws|gcloud|azure ~1 credentials'),
  weak('exfil.the-users-things', 'exfiltration', '@handOver ~3 the|this ~1 user|users|customer|customers|client ~1 s ~2 @userOwned'),
];
